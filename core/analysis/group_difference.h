#pragma once
// How two compressions of one video group its tokens differently (issue 30, view 14: the A/B
// view's difference overlay). Two groupings are two partitions (with dropped tokens outside
// both), their groups are not named alike (ONCE at two budgets shares codeword ids, a peer has
// none), so a token is judged by where its group went: each group of A is matched to the group
// of B that holds most of its members and each group of B to the group of A that holds most of
// its (ties to the lower row), and a token grouped on both sides kept its group when its two
// groups are each other's match; else it *moved*. The rule is symmetric, so a merge and the
// split that undoes it move the same tokens: the smaller part's. A token in no group on one side
// was dropped there. For two identical groupings (whatever their row names) nothing moved.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace once {

struct GroupDifference {
    enum State : std::uint8_t {
        Same = 0,
        Moved = 1,
        DroppedInA = 2,
        DroppedInB = 3,
        DroppedInBoth = 4
    };
    std::vector<std::uint8_t> state;  ///< [N] per token
    std::int64_t same = 0, moved = 0, droppedInA = 0, droppedInB = 0, droppedInBoth = 0;
    /// Share of the tokens grouped on both sides that kept their group (same / (same + moved)).
    double keptShare() const;
};

/// Compares `groupOfTokenA` and `groupOfTokenB` ([N] integer, output row or −1 when dropped).
/// Throws OnceError when their lengths differ.
GroupDifference compareGroupings(const at::Tensor& groupOfTokenA, const at::Tensor& groupOfTokenB);

}  // namespace once
