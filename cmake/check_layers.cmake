# Refuses an arrow up between layers: every '#include <hydrostat/<layer>/...>' in source/<L>/ and
# include/hydrostat/<L>/ must name L itself or a layer that L uses, directly or through the layers
# it uses (the DEPENDS of hydrostat_add_layer()). Run with -DSOURCE_DIR=... -DGRAPH=<file written
# at configure time that sets HYDROSTAT_LAYERS and HYDROSTAT_DEPENDS_<layer>>, at every build
# (target hydrostat_layer_check, which every layer waits for) and once at configure time.
cmake_policy(SET CMP0057 NEW) # if(IN_LIST) in script mode
include(${GRAPH})

# The layers that @layer may use: itself and the closure of its DEPENDS.
function(hydrostat_reachable layer out)
  set(reached ${layer})
  set(queue ${HYDROSTAT_DEPENDS_${layer}})
  while(queue)
    list(POP_FRONT queue next)
    if(NOT next IN_LIST reached)
      list(APPEND reached ${next})
      list(APPEND queue ${HYDROSTAT_DEPENDS_${next}})
    endif()
  endwhile()
  set(${out} ${reached} PARENT_SCOPE)
endfunction()

set(violations "")
foreach(layer ${HYDROSTAT_LAYERS})
  hydrostat_reachable(${layer} allowed)
  file(GLOB files ${SOURCE_DIR}/source/${layer}/*.cc ${SOURCE_DIR}/include/hydrostat/${layer}/*.h)
  foreach(file ${files})
    file(STRINGS ${file} includes REGEX "^#include <hydrostat/[a-z_]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include <hydrostat/([a-z_]+)/.*" "\\1" used "${line}")
      if(NOT used IN_LIST allowed)
        file(RELATIVE_PATH relative ${SOURCE_DIR} ${file})
        set(others ${allowed})
        list(REMOVE_ITEM others ${layer})
        string(REPLACE ";" ", " allowed_text "${others}")
        string(APPEND violations "\n  ${relative}: ${line} -- layer '${layer}' may use only: ${allowed_text} "
                                 "(source/${layer}/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "Hydrostat layers: an include runs up or across the layer graph:${violations}\n"
                      "Move the code to a layer that may use what it includes, or add the layer to DEPENDS if "
                      "that arrow does not run up.")
endif()
