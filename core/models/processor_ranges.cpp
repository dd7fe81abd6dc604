#include "models/processor_ranges.h"

#include <sstream>

#include "util/error.h"

namespace once {

void checkProcessorRange(double value, double lo, double hi, const std::string& file,
                         const std::string& field) {
    if (!(value >= lo && value <= hi)) {
        std::ostringstream range, found;
        range << "a number in [" << lo << ", " << hi << "]";
        found << value;
        fail("processor setting out of range", file, field, range.str(), found.str());
    }
}

}  // namespace once
