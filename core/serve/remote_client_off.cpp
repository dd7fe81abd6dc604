// serve/remote_client.h in a build without cpp-httplib (ONCE_WITH_SERVE=OFF): the studio still
// builds and runs, and its Connect to Server… says why it cannot connect.
#include "serve/remote_client.h"
#include "util/error.h"

namespace once::serve {
namespace {
[[noreturn]] void unavailable(const RemoteEndpoint& e) {
    fail("this build has no HTTP client (ONCE_WITH_SERVE=OFF: no cpp-httplib)", e.url, "server",
         "a build with libcpp-httplib-dev", "ONCE_WITH_SERVE=OFF");
}
}  // namespace

std::string remoteModel(const RemoteEndpoint& endpoint) {
    unavailable(endpoint);
}

RemoteAnswer askRemote(const RemoteEndpoint& endpoint, const std::string&, const std::string&,
                       const AskOptions&, const std::string&, const CancelToken&, std::size_t) {
    unavailable(endpoint);
}

RemoteCompression remoteCompress(const RemoteEndpoint& endpoint, const std::string&,
                                 const AskOptions&, const std::string&, const CancelToken&,
                                 std::size_t) {
    unavailable(endpoint);
}

}  // namespace once::serve
