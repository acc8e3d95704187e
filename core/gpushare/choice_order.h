// SPDX-License-Identifier: Apache-2.0
#pragma once

// The order in which the allocator tries a claim's firstAvailable alternatives: one index per
// list, the last list moving fastest (its depth-first walk backs up to the latest request first;
// Allocator::visitRequest). Used where a claim's choices are enumerated as it would take them.

#include <cstddef>
#include <vector>

namespace drasim::gpushare {

/// Moves `at` (an alternative index per list of `lists`) to the next choice in the allocator's
/// order. False, with `at` all zero again, after the last choice.
template <class Lists> bool nextChoice(std::vector<size_t>& at, const Lists& lists)
{
    size_t i = lists.size();
    while (i > 0 && ++at[i - 1] == lists[i - 1].size())
        at[--i] = 0;
    return i != 0;
}

} // namespace drasim::gpushare
