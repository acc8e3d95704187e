// SPDX-License-Identifier: Apache-2.0
// Names and descriptions of injected events (declared in simulator.h).
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

const char* injectedEventTypeName(InjectedEvent::Type t)
{
    switch (t) {
    case InjectedEvent::Type::NodeFailure:
        return "NodeFailure";
    case InjectedEvent::Type::NodeReturn:
        return "NodeReturn";
    case InjectedEvent::Type::DeviceTaint:
        return "DeviceTaint";
    case InjectedEvent::Type::DeviceUntaint:
        return "DeviceUntaint";
    case InjectedEvent::Type::AddNodePool:
        return "AddNodePool";
    case InjectedEvent::Type::RemoveNodePool:
        return "RemoveNodePool";
    case InjectedEvent::Type::DeviceTaintRule:
        return "DeviceTaintRule";
    case InjectedEvent::Type::DeviceTaintRuleDelete:
        return "DeviceTaintRuleDelete";
    case InjectedEvent::Type::NodeTaint:
        return "NodeTaint";
    case InjectedEvent::Type::NodeUntaint:
        return "NodeUntaint";
    }
    return "";
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
    }
    return c;
}

} // namespace drasim::sim
