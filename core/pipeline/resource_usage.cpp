#include "pipeline/resource_usage.h"

#include <fstream>
#include <string>

namespace once {

void resetPeakRss() {
    std::ofstream f("/proc/self/clear_refs");
    if (f) {
        f << "5";  // "5" resets the peak RSS to the current RSS
    }
}

std::int64_t peakRssBytes() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            return std::stoll(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
        }
    }
    return -1;
}

}  // namespace once
