#pragma once
// Helpers of the training and cluster suites (tests/train, tests/cluster): comparing the folders
// that Stage A, the merge and the sharded encoder write.
#include <map>
#include <string>

namespace once::test {

/// Every file directly in `dir`, by name, with its bytes: two folders hold the same files with
/// the same bytes iff their maps are equal.
std::map<std::string, std::string> folderBytes(const std::string& dir);

}  // namespace once::test
