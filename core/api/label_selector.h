// SPDX-License-Identifier: Apache-2.0
#pragma once

// metav1.LabelSelector: matchLabels ANDed with matchExpressions (In, NotIn, Exists, DoesNotExist),
// as metav1.LabelSelectorAsSelector turns it into a labels.Selector.

#include <map>
#include <string>
#include <vector>

namespace drasim::api {

using Labels = std::map<std::string, std::string>;

struct LabelSelectorRequirement
{
    std::string key;
    std::string op; ///< In, NotIn, Exists, DoesNotExist
    std::vector<std::string> values;
    bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector
{
    Labels matchLabels;
    std::vector<LabelSelectorRequirement> matchExpressions;
    bool operator==(const LabelSelector&) const = default;

    /// Whether `labels` satisfy every matchLabels entry and every requirement. An empty selector
    /// matches everything (labels.Everything()); an unknown operator matches nothing, as the
    /// conversion to a selector fails.
    bool matches(const Labels& labels) const;
    bool empty() const { return matchLabels.empty() && matchExpressions.empty(); }
};

/// One requirement against a label set (labels.Requirement.Matches): NotIn and DoesNotExist hold
/// for a label that is absent.
bool requirementMatches(const LabelSelectorRequirement& req, const Labels& labels);

} // namespace drasim::api
