#pragma once
// Who may talk to `once serve`: it binds to the loopback interface unless told otherwise, any
// other bind needs an API key, and the key a request presents (Authorization: Bearer KEY) is
// compared in constant time.
#include <string>
#include <string_view>

namespace once::serve {

/// True for 127.0.0.0/8, ::1 and "localhost": addresses only this machine can reach.
bool isLoopbackHost(const std::string& host);

/// Compares a presented secret with the expected one in time independent of where they differ
/// and of the presented length (both are hashed first; SHA-256 digests compared with OR of XOR).
bool sameSecret(std::string_view presented, std::string_view expected);

/// The key in `path`: its first line without surrounding whitespace, 16 to 4096 printable ASCII
/// characters. Throws OnceError naming the file otherwise.
std::string readApiKeyFile(const std::string& path);

/// The token of an "Authorization: Bearer TOKEN" header value; empty when it is not one.
std::string bearerToken(std::string_view header);

}  // namespace once::serve
