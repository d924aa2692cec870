#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>

#include <sstream>

namespace hydrostat
{
  std::string message_of(const std::exception &error)
  {
    if (const auto *deal_error = dynamic_cast<const dealii::ExceptionBase *>(&error))
      {
        std::ostringstream text;
        deal_error->print_info(text);
        return dealii::Utilities::trim(text.str());
      }
    return error.what();
  }
} // namespace hydrostat
