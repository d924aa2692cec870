#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/hill/muscle_tendon_unit.h>

#include <boost/math/tools/roots.hpp>

#include <cmath>
#include <sstream>

namespace hydrostat
{
  using dealii::Patterns::Double;

  HillMuscleTendonUnit::HillMuscleTendonUnit(const Parameters &p)
    : param(p)
  {
    require(p.F_max > 0.0 && p.l_CE_opt > 0.0 && p.l_SEE0 > 0.0, "Hill MTU: Fmax, lCEopt and lSEE0 must be positive.");
    require(p.A_rel0 > 0.0 && p.B_rel0 > 0.0, "Hill MTU: Arel0 and Brel0 must be positive.");
    require(p.dU_SEE_nll > 0.0 && p.dU_SEE_l > 0.0 && p.dF_SEE0 > 0.0,
            "Hill MTU: dUSEEnll, dUSEEl and dFSEE0 must be positive.");
    require(p.dW_des + 1.0 > p.L_PEE0, "Hill MTU: need LPEE0 < 1 + dWdes (PEE stiffness).");
    // theory.md eqs. (35)–(36): stiffnesses chosen so that F_PEE = F_PEE F_max at l_CE_opt (1 + dW_des) and the
    // SEE is C¹ at l_SEE,nll.
    l_PEE0    = p.L_PEE0 * p.l_CE_opt;
    K_pee     = p.F_PEE * p.F_max / std::pow(p.l_CE_opt * (p.dW_des + 1.0 - p.L_PEE0), p.nu_PEE);
    l_SEE_nll = (1.0 + p.dU_SEE_nll) * p.l_SEE0;
    nu_SEE    = p.dU_SEE_nll / p.dU_SEE_l;
    K_see_nl  = p.dF_SEE0 / std::pow(p.dU_SEE_nll * p.l_SEE0, nu_SEE);
    K_see_l   = p.dF_SEE0 / (p.dU_SEE_l * p.l_SEE0);
  }

  void HillMuscleTendonUnit::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters d;
    prm.declare_entry("Fmax", shortest_text(d.F_max), Double(0.0), "Maximum isometric force [N].");
    prm.declare_entry("lCEopt", shortest_text(d.l_CE_opt), Double(0.0), "Optimal CE length [m].");
    prm.declare_entry("dWdes", shortest_text(d.dW_des), Double(0.0), "Width of the descending force-length limb.");
    prm.declare_entry("nuCEdes", shortest_text(d.nu_CE_des), Double(0.0), "Exponent of the descending limb.");
    prm.declare_entry("dWasc", shortest_text(d.dW_asc), Double(0.0), "Width of the ascending force-length limb.");
    prm.declare_entry("nuCEasc", shortest_text(d.nu_CE_asc), Double(0.0), "Exponent of the ascending limb.");
    prm.declare_entry("Arel0", shortest_text(d.A_rel0), Double(0.0),
                      "Hill constant A_rel,0 (force-velocity curvature).");
    prm.declare_entry("Brel0", shortest_text(d.B_rel0), Double(0.0), "Hill constant B_rel,0 [1/s].");
    prm.declare_entry("Secc", shortest_text(d.S_ecc), Double(0.0), "Eccentric/concentric slope ratio at v = 0.");
    prm.declare_entry("Fecc", shortest_text(d.F_ecc), Double(1.0),
                      "Eccentric force asymptote in units of q F_isom F_max.");
    prm.declare_entry("LPEE0", shortest_text(d.L_PEE0), Double(0.0), "PEE rest length in units of lCEopt.");
    prm.declare_entry("nuPEE", shortest_text(d.nu_PEE), Double(0.0), "PEE exponent.");
    prm.declare_entry("FPEE", shortest_text(d.F_PEE), Double(0.0),
                      "PEE force at lCEopt (1 + dWdes), in units of Fmax.");
    prm.declare_entry("lSEE0", shortest_text(d.l_SEE0), Double(0.0), "SEE rest length [m].");
    prm.declare_entry("dUSEEnll", shortest_text(d.dU_SEE_nll), Double(0.0),
                      "Relative SEE stretch at the toe/linear transition.");
    prm.declare_entry("dUSEEl", shortest_text(d.dU_SEE_l), Double(0.0),
                      "Relative stretch defining the linear SEE stiffness.");
    prm.declare_entry("dFSEE0", shortest_text(d.dF_SEE0), Double(0.0), "SEE force at the transition [N].");
    prm.declare_entry(
      "Damping", "3", dealii::Patterns::Selection("3"),
      "Damping method; 3 (Haeufle 2014) is the only one implemented and the one of every published set.");
    prm.declare_entry("DSE", shortest_text(d.D_SE), Double(0.0), "Damping Param1: D_SE (dimensionless SDE damping).");
    prm.declare_entry("RSE", shortest_text(d.R_SE), Double(0.0, 1.0),
                      "Damping Param2: R_SE (force-independent SDE part).");
    prm.declare_entry("lOffset", shortest_text(d.l_offset), Double(),
                      "Length added to the element length [m] (card 3, cm(8)).");
  }

  HillMuscleTendonUnit::Parameters HillMuscleTendonUnit::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.F_max      = prm.get_double("Fmax");
    p.l_CE_opt   = prm.get_double("lCEopt");
    p.dW_des     = prm.get_double("dWdes");
    p.nu_CE_des  = prm.get_double("nuCEdes");
    p.dW_asc     = prm.get_double("dWasc");
    p.nu_CE_asc  = prm.get_double("nuCEasc");
    p.A_rel0     = prm.get_double("Arel0");
    p.B_rel0     = prm.get_double("Brel0");
    p.S_ecc      = prm.get_double("Secc");
    p.F_ecc      = prm.get_double("Fecc");
    p.L_PEE0     = prm.get_double("LPEE0");
    p.nu_PEE     = prm.get_double("nuPEE");
    p.F_PEE      = prm.get_double("FPEE");
    p.l_SEE0     = prm.get_double("lSEE0");
    p.dU_SEE_nll = prm.get_double("dUSEEnll");
    p.dU_SEE_l   = prm.get_double("dUSEEl");
    p.dF_SEE0    = prm.get_double("dFSEE0");
    p.D_SE       = prm.get_double("DSE");
    p.R_SE       = prm.get_double("RSE");
    p.l_offset   = prm.get_double("lOffset");
    return p;
  }

  HillMuscleTendonUnit::Forces HillMuscleTendonUnit::forces(const double l_CE, const double v, const double l_MTC,
                                                            const double dl_MTC, const double q) const
  {
    Forces f;
    f.F_CE  = force_CE(l_CE, v, q);
    f.F_PEE = force_PEE(l_CE);
    f.F_SEE = force_SEE(l_SEE(l_CE, l_MTC));
    f.F_SDE = force_SDE(l_CE, v, dl_MTC, q);
    f.F_MTC = f.F_SEE + f.F_SDE;
    return f;
  }

  double HillMuscleTendonUnit::equilibrium_l_CE(const double l_MTC, const double q) const
  {
    // Residual F_SEE − F_CE,isometric − F_PEE decreases in l_CE; at l_CE = 0 it is F_SEE(l_MTC) ≥ 0,
    // at l_CE = l_MTC it is −F_max q F_isom − F_PEE ≤ 0, so [0, l_MTC] brackets the root (theory.md eq. (42)).
    const auto residual = [&](const double l_CE) {
      return force_SEE(l_SEE(l_CE, l_MTC)) - param.F_max * q * F_isom(l_CE) - force_PEE(l_CE);
    };
    const double l_total = l_MTC + param.l_offset;
    const double r_lo = residual(0.0), r_hi = residual(l_total);
    AssertThrow(r_lo >= 0.0 && r_hi <= 0.0,
                dealii::ExcMessage("Hill MTU: no initial l_CE in [0, l_MTC] for l_MTC = " + std::to_string(l_MTC)));
    if (r_lo == 0.0)
      return 0.0;
    if (r_hi == 0.0)
      return l_total;
    boost::uintmax_t max_iter = 200;
    const auto       bracket  = boost::math::tools::toms748_solve(residual, 0.0, l_total, r_lo, r_hi,
                                                                  boost::math::tools::eps_tolerance<double>(50), max_iter);
    return 0.5 * (bracket.first + bracket.second);
  }
} // namespace hydrostat
