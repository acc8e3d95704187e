// SPDX-License-Identifier: Apache-2.0
// Names and descriptions of injected events (declared in simulator.h).
#include <utility>

#include "core/sim/simulator.h"

namespace drasim::sim {

namespace {

std::string taintText(const api::DeviceTaint& t, bool withEffect)
{
    std::string out = t.key;
    if (withEffect && !t.value.empty())
        out += "=" + t.value;
    if (withEffect)
        out += ":" + t.effect;
    return out;
}

void addWord(std::string& out, const char* key, const std::string& value)
{
    if (value.empty())
        return;
    if (!out.empty())
        out += ' ';
    out += key;
    out += '=';
    out += value;
}

std::string selectorText(const std::optional<api::DeviceTaintSelector>& s)
{
    std::string out;
    auto part = [&](const char* key, const std::optional<std::string>& value) {
        if (!value)
            return;
        if (!out.empty())
            out += ',';
        out += key;
        out += ':';
        out += *value;
    };
    if (s) {
        part("driver", s->driver);
        part("pool", s->pool);
        part("device", s->device);
    }
    return out;
}

} // namespace

namespace {

/// Every event type and its spelling in scenarios, transcripts and run records, in declaration
/// order: the one list the reader, the writers and the "supported values" message share.
constexpr std::pair<InjectedEvent::Type, const char*> kEventTypes[] = {
    { InjectedEvent::Type::NodeFailure, "NodeFailure" },
    { InjectedEvent::Type::NodeReturn, "NodeReturn" },
    { InjectedEvent::Type::DeviceTaint, "DeviceTaint" },
    { InjectedEvent::Type::DeviceUntaint, "DeviceUntaint" },
    { InjectedEvent::Type::AddNodePool, "AddNodePool" },
    { InjectedEvent::Type::RemoveNodePool, "RemoveNodePool" },
    { InjectedEvent::Type::DeviceTaintRule, "DeviceTaintRule" },
    { InjectedEvent::Type::DeviceTaintRuleDelete, "DeviceTaintRuleDelete" },
    { InjectedEvent::Type::NodeTaint, "NodeTaint" },
    { InjectedEvent::Type::NodeUntaint, "NodeUntaint" },
    { InjectedEvent::Type::PodGroupMinCount, "PodGroupMinCount" },
};

} // namespace

const char* injectedEventTypeName(InjectedEvent::Type t)
{
    for (const auto& [type, name] : kEventTypes)
        if (type == t)
            return name;
    return "";
}

std::optional<InjectedEvent::Type> parseInjectedEventType(std::string_view name)
{
    for (const auto& [type, spelling] : kEventTypes)
        if (name == spelling)
            return type;
    return std::nullopt;
}

std::vector<std::string> injectedEventTypeNames()
{
    std::vector<std::string> out;
    for (const auto& entry : kEventTypes)
        out.emplace_back(entry.second);
    return out;
}

ClusterEvent clusterEventOf(const InjectedEvent& e, SimTime time)
{
    ClusterEvent c;
    c.time = time;
    c.kind = injectedEventTypeName(e.type);
    switch (e.type) {
    case InjectedEvent::Type::NodeFailure:
    case InjectedEvent::Type::NodeReturn:
        c.subject = e.node;
        break;
    case InjectedEvent::Type::DeviceTaint:
    case InjectedEvent::Type::DeviceUntaint:
    case InjectedEvent::Type::NodeTaint:
    case InjectedEvent::Type::NodeUntaint: {
        const bool add
            = e.type == InjectedEvent::Type::DeviceTaint || e.type == InjectedEvent::Type::NodeTaint;
        c.subject = e.node;
        addWord(c.detail, "driver", e.driver);
        addWord(c.detail, "device", e.device);
        addWord(c.detail, "taint", taintText(e.taint, add));
        break;
    }
    case InjectedEvent::Type::DeviceTaintRule:
        c.subject = e.pool;
        addWord(c.detail, "selector", selectorText(e.selector));
        addWord(c.detail, "taint", taintText(e.taint, true));
        break;
    case InjectedEvent::Type::DeviceTaintRuleDelete:
    case InjectedEvent::Type::RemoveNodePool:
        c.subject = e.pool;
        break;
    case InjectedEvent::Type::AddNodePool:
        c.subject = e.newPool ? e.newPool->name : std::string();
        addWord(c.detail, "nodes", e.newPool ? std::to_string(e.newPool->nodes.size()) : "0");
        break;
    case InjectedEvent::Type::PodGroupMinCount:
        c.subject = e.workload;
        addWord(c.detail, "minCount", std::to_string(e.minCount));
        break;
    }
    if (e.origin == InjectedEvent::Origin::FailureProcess)
        addWord(c.detail, "cause", "failure-process");
    else if (e.origin == InjectedEvent::Origin::SpotReclaim)
        addWord(c.detail, "cause", "spot-reclaim");
    return c;
}

} // namespace drasim::sim
