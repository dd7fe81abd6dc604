#include "cli/output_options.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "util/json_text.h"

namespace once::cli {

void declareOverwrite(ArgParser& p, const std::string& extra) {
    p.flag("overwrite",
           "replace an output that is a symbolic link or a special file (the link itself, never "
           "its target; a regular file is always replaced)" +
               extra);
}

OutputReplace replaceFrom(const ArgParser& a) {
    return outputReplace(a.flagSet("overwrite"));
}

void printJson(const nlohmann::json& j, int indent) {
    std::cout << jsonText(j, indent) << "\n";
}

}  // namespace once::cli
