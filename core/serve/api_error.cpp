#include "serve/api_error.h"

namespace once::serve {

void tooLarge(const std::string& what, const std::string& field, std::size_t limit,
              std::size_t found) {
    throw ApiError(413, "invalid_request_error", what + " is larger than the server's limit",
                   {"request", field, "at most " + std::to_string(limit) + " bytes",
                    std::to_string(found) + " bytes"});
}

}  // namespace once::serve
