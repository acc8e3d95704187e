// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/node_match.h"

#include <algorithm>
#include <charconv>

namespace drasim::allocator {

namespace {

bool parseInt(const std::string& s, int64_t& out)
{
    const char* end = s.data() + s.size();
    auto r = std::from_chars(s.data(), end, out);
    return r.ec == std::errc() && r.ptr == end;
}

} // namespace

bool matchesRequirement(const api::NodeSelectorRequirement& req, const api::Node& node, bool field)
{
    const std::string* value = nullptr;
    if (field) {
        // Only metadata.name is a supported node field selector.
        if (req.key == "metadata.name")
            value = &node.meta.name;
    } else {
        auto it = node.meta.labels.find(req.key);
        if (it != node.meta.labels.end())
            value = &it->second;
    }
    const auto& vals = req.values;
    if (req.op == "In")
        return value && std::find(vals.begin(), vals.end(), *value) != vals.end();
    if (req.op == "NotIn")
        return !value || std::find(vals.begin(), vals.end(), *value) == vals.end();
    if (req.op == "Exists")
        return value != nullptr;
    if (req.op == "DoesNotExist")
        return value == nullptr;
    if (req.op == "Gt" || req.op == "Lt") {
        int64_t have = 0;
        int64_t want = 0;
        if (!value || vals.size() != 1 || !parseInt(*value, have) || !parseInt(vals[0], want))
            return false;
        return req.op == "Gt" ? have > want : have < want;
    }
    return false;
}

bool matchesTerm(const api::NodeSelectorTerm& term, const api::Node& node)
{
    // A term without any requirement matches no node (Kubernetes semantics).
    if (term.matchExpressions.empty() && term.matchFields.empty())
        return false;
    for (const auto& r : term.matchExpressions)
        if (!matchesRequirement(r, node, false))
            return false;
    for (const auto& r : term.matchFields)
        if (!matchesRequirement(r, node, true))
            return false;
    return true;
}

bool matchesNodeSelector(const api::NodeSelector& selector, const api::Node& node)
{
    for (const auto& t : selector.terms)
        if (matchesTerm(t, node))
            return true;
    return false;
}

} // namespace drasim::allocator
