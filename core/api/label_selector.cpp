// SPDX-License-Identifier: Apache-2.0
#include "core/api/label_selector.h"

#include <algorithm>

namespace drasim::api {

bool requirementMatches(const LabelSelectorRequirement& req, const Labels& labels)
{
    const auto it = labels.find(req.key);
    const bool has = it != labels.end();
    const auto listed = [&] {
        return has && std::find(req.values.begin(), req.values.end(), it->second) != req.values.end();
    };
    if (req.op == "In")
        return listed();
    if (req.op == "NotIn")
        return !listed();
    if (req.op == "Exists")
        return has;
    if (req.op == "DoesNotExist")
        return !has;
    return false;
}

bool LabelSelector::matches(const Labels& labels) const
{
    for (const auto& [key, value] : matchLabels) {
        const auto it = labels.find(key);
        if (it == labels.end() || it->second != value)
            return false;
    }
    return std::all_of(matchExpressions.begin(), matchExpressions.end(),
        [&](const LabelSelectorRequirement& req) { return requirementMatches(req, labels); });
}

} // namespace drasim::api
