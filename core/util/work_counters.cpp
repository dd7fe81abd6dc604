#include "util/work_counters.h"

namespace once {

WorkCounters& workCounters() {
    static WorkCounters counters;
    return counters;
}

}  // namespace once
