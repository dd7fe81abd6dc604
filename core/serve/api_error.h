#pragma once
// An error a client of `once serve` caused (or the server's state: busy, not ready), with the
// HTTP status and the OpenAI error type it is answered with. It is an OnceError, so its field
// (OnceError::where().field) becomes the OpenAI error's `param`; any other OnceError a request
// raises (a bad video, an unknown method, a codebook mismatch) is answered as 400
// invalid_request_error the same way (serve/openai_json.h).
#include <string>

#include "util/error.h"

namespace once::serve {

class ApiError : public OnceError {
  public:
    ApiError(int status, std::string type, const std::string& message, Where where = {},
             std::string code = {})
        : OnceError(message, std::move(where)),
          status_(status),
          type_(std::move(type)),
          code_(std::move(code)) {}

    int status() const noexcept { return status_; }
    /// invalid_request_error, authentication_error, not_found_error, rate_limit_error, …
    const std::string& type() const noexcept { return type_; }
    /// The OpenAI error's `code`, for an error a client acts on (serve/media_url.h
    /// kVideoNotCachedCode); empty: null.
    const std::string& code() const noexcept { return code_; }

  private:
    int status_;
    std::string type_;
    std::string code_;
};

/// Throws ApiError(413, "invalid_request_error", …) naming `field`: a body or a video larger
/// than the server's limit.
[[noreturn]] void tooLarge(const std::string& what, const std::string& field, std::size_t limit,
                           std::size_t found);

}  // namespace once::serve
