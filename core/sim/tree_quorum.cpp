// SPDX-License-Identifier: Apache-2.0
#include "core/sim/tree_quorum.h"

#include <algorithm>

#include "core/scheduler/group_tree.h"

namespace drasim::sim {

namespace {

void addLevels(const scheduler::GroupTreeNode& n, int32_t parent, TreeQuorum& out)
{
    TreeQuorum::Level level;
    level.key = n.policy.key;
    level.parent = parent;
    level.composite = n.composite;
    level.gang = n.policy.gang;
    level.minCount = std::max(1, n.policy.minCount);
    out.levels.push_back(std::move(level));
    const auto self = int32_t(out.levels.size() - 1);
    for (const auto& child : n.children)
        addLevels(child, self, out);
}

} // namespace

TreeQuorum treeQuorumOf(const scheduler::GroupTreeNode& root)
{
    TreeQuorum out;
    addLevels(root, -1, out);
    return out;
}

bool TreeQuorum::anyGang() const
{
    return std::any_of(levels.begin(), levels.end(), [](const Level& l) { return l.gang; });
}

bool TreeQuorum::holds(const std::map<std::string, int32_t>& bound) const
{
    if (levels.empty())
        return false;
    // Children come after their parent: walking backwards settles every child before its parent.
    std::vector<int32_t> childrenHeld(levels.size(), 0);
    bool rootHolds = false;
    for (size_t i = levels.size(); i-- > 0;) {
        const Level& l = levels[i];
        const int32_t need = l.gang ? l.minCount : 1;
        int32_t have = childrenHeld[i];
        if (!l.composite) {
            const auto it = bound.find(l.key);
            have = it == bound.end() ? 0 : it->second;
        }
        const bool held = have >= need;
        if (l.parent >= 0)
            childrenHeld[size_t(l.parent)] += held ? 1 : 0;
        else
            rootHolds = held;
    }
    return rootHolds;
}

} // namespace drasim::sim
