// SPDX-License-Identifier: Apache-2.0
#pragma once

// Pieces of a text key that must not collide: the simulator's scheduling signatures and the
// scheduler's remembered Filter verdicts are keyed by what a pod asks for, written with these.

#include <string>
#include <string_view>
#include <vector>

#include "core/api/meta.h"

namespace drasim::api {

/// Appends `s` length-prefixed ("5:hello"), so that no content can imitate a separator.
inline void appendKeyField(std::string& out, std::string_view s)
{
    out += std::to_string(s.size());
    out += ':';
    out += s;
}

/// Appends node selector requirements: "[key op values;...]".
inline void appendKeyRequirements(std::string& out, const std::vector<NodeSelectorRequirement>& reqs)
{
    out += '[';
    for (const auto& r : reqs) {
        appendKeyField(out, r.key);
        appendKeyField(out, r.op);
        for (const auto& v : r.values)
            appendKeyField(out, v);
        out += ';';
    }
    out += ']';
}

/// Appends tolerations: key, operator, value and effect of each (what filtering reads of them).
inline void appendKeyTolerations(std::string& out, const std::vector<Toleration>& tolerations)
{
    for (const auto& t : tolerations) {
        appendKeyField(out, t.key);
        appendKeyField(out, t.op);
        appendKeyField(out, t.value);
        appendKeyField(out, t.effect);
    }
}

} // namespace drasim::api
