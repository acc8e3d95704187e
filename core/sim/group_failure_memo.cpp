// SPDX-License-Identifier: Apache-2.0
#include "core/sim/group_failure_memo.h"

#include <algorithm>

namespace drasim::sim {

namespace {

std::string leadOf(const std::string& key)
{
    return "pod group " + key + ": ";
}

/// The message with its group's lead replaced by another group's; nullopt if it lacks the lead.
std::optional<std::string> rekeyed(const std::string& message, const std::string& from, const std::string& to)
{
    const std::string lead = leadOf(from);
    if (!message.starts_with(lead))
        return std::nullopt;
    return leadOf(to) + message.substr(lead.size());
}

/// The message, lead aside, names nothing of the group: it reads the same for an equal group.
bool namesNothingOf(const std::string& message, const std::string& key, const std::vector<std::string>& names)
{
    const std::string lead = leadOf(key);
    const std::string rest = message.starts_with(lead) ? message.substr(lead.size()) : message;
    if (rest.find(key) != std::string::npos)
        return false;
    return std::none_of(
        names.begin(), names.end(), [&](const std::string& n) { return rest.find(n) != std::string::npos; });
}

} // namespace

std::optional<GroupOutcome> GroupFailureMemo::recall(
    const std::string& signature, uint64_t generation, const std::string& key) const
{
    if (generation != m_generation)
        return std::nullopt;
    for (const auto& e : m_entries) {
        if (e.signature != signature)
            continue;
        GroupOutcome out = e.outcome;
        auto message = rekeyed(out.message, e.key, key);
        if (!message)
            return std::nullopt;
        out.message = *message;
        for (auto& m : out.members) {
            auto memberMessage = rekeyed(m.message, e.key, key);
            if (!memberMessage)
                return std::nullopt;
            m.message = *memberMessage;
            m.claims.clear(); // the other group's claims; a member that was not bound has none in use
        }
        return out;
    }
    return std::nullopt;
}

void GroupFailureMemo::remember(const std::string& signature, uint64_t generation, const std::string& key,
    const std::vector<api::Pod>& pods, const GroupOutcome& out)
{
    if (generation != m_generation) {
        m_entries.clear();
        m_generation = generation;
    }
    if (out.scheduled || !out.victims.empty())
        return;
    std::vector<std::string> names;
    const auto slash = key.find('/');
    names.push_back(slash == std::string::npos ? key : key.substr(slash + 1));
    for (const auto& p : pods)
        names.push_back(p.meta.name);
    if (!namesNothingOf(out.message, key, names) || !namesNothingOf(out.preemptionMessage, key, names))
        return;
    for (const auto& m : out.members) {
        if (m.scheduled || !m.victims.empty() || !m.nominatedNode.empty() || !m.allocated.empty()
            || !namesNothingOf(m.message, key, names))
            return;
    }
    for (auto& e : m_entries) {
        if (e.signature == signature) {
            e = Entry { signature, key, out };
            return;
        }
    }
    m_entries.push_back(Entry { signature, key, out });
}

} // namespace drasim::sim
