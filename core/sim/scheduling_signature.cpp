// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scheduling_signature.h"

#include <cctype>
#include <cstdlib>

#include "core/api/key_text.h"

namespace drasim::sim {

namespace {

void put(std::string& out, const std::string& s)
{
    api::appendKeyField(out, s);
}

void putRequirements(std::string& out, const std::vector<api::NodeSelectorRequirement>& reqs)
{
    api::appendKeyRequirements(out, reqs);
}

void putResources(std::string& out, const api::ResourceList& list)
{
    for (const auto& [name, q] : list) {
        put(out, name);
        put(out, q.toString());
    }
    out += '|';
}

} // namespace

std::string schedulingSignature(const api::Pod& pod)
{
    std::string out;
    const api::PodSpec& spec = pod.spec;
    put(out, pod.meta.namespace_);
    put(out, spec.schedulerName);
    out += "claims";
    for (const auto& c : spec.resourceClaims) {
        put(out, c.name);
        put(out, c.resourceClaimName.value_or(""));
        put(out, c.resourceClaimTemplateName.value_or(""));
    }
    out += "sel";
    for (const auto& [k, v] : spec.nodeSelector) {
        put(out, k);
        put(out, v);
    }
    out += "aff";
    if (spec.nodeAffinity && spec.nodeAffinity->required) {
        for (const auto& term : spec.nodeAffinity->required->terms) {
            putRequirements(out, term.matchExpressions);
            putRequirements(out, term.matchFields);
            out += '/';
        }
    }
    out += "tol";
    api::appendKeyTolerations(out, spec.tolerations);
    out += "res";
    putResources(out, spec.overhead);
    for (const auto* list : { &spec.initContainers, &spec.containers }) {
        for (const auto& c : *list) {
            putResources(out, c.resources.requests);
            putResources(out, c.resources.limits);
            for (const auto& claim : c.resources.claims)
                put(out, claim);
            out += '#';
        }
        out += '@';
    }
    // Priority decides whether a pod that fits nowhere can preempt, so pods of different
    // priorities are not interchangeable once preemption is modelled.
    out += "prio";
    put(out, std::to_string(spec.priority.value_or(0)));
    return out;
}

std::string groupSchedulingSignature(const GroupPolicy& group, const std::vector<api::Pod>& pods)
{
    std::string out = "group";
    out += group.gang ? 'g' : 'b';
    out += group.topologyAware ? 't' : '-';
    out += group.workloadAwarePreemption ? 'w' : '-';
    out += group.disruptAll ? 'a' : '-';
    out += group.preemptionNever ? 'n' : '-';
    put(out, std::to_string(group.minCount));
    put(out, std::to_string(group.priority));
    put(out, group.topologyKey);
    for (const auto& pod : pods) {
        out += "pod";
        put(out, schedulingSignature(pod));
        put(out, pod.spec.nodeName);
        put(out, std::to_string(int(pod.spec.preemptionPolicy)));
        out += "pref";
        if (pod.spec.nodeAffinity) {
            for (const auto& term : pod.spec.nodeAffinity->preferred) {
                put(out, std::to_string(term.weight));
                putRequirements(out, term.preference.matchExpressions);
                putRequirements(out, term.preference.matchFields);
            }
        }
    }
    return out;
}

std::string primaryReason(const std::string& message)
{
    static const std::string kMarker = " nodes are available: ";
    auto pos = message.find(kMarker);
    if (pos != std::string::npos) {
        std::string rest = message.substr(pos + kMarker.size());
        while (!rest.empty() && (rest.back() == '.' || rest.back() == ' ' || rest.back() == '\n'))
            rest.pop_back();
        std::string best;
        long bestCount = -1;
        size_t start = 0;
        while (start <= rest.size()) {
            size_t end = rest.find(", ", start);
            std::string part = rest.substr(start, end == std::string::npos ? std::string::npos : end - start);
            char* after = nullptr;
            long count = std::strtol(part.c_str(), &after, 10);
            std::string phrase = part;
            if (after != part.c_str() && after && *after == ' ')
                phrase = std::string(after + 1);
            else
                count = 0;
            if (!phrase.empty() && (count > bestCount || (count == bestCount && phrase < best))) {
                best = phrase;
                bestCount = count;
            }
            if (end == std::string::npos)
                break;
            start = end + 2;
        }
        if (!best.empty())
            return best;
    }
    std::string out;
    bool quoted = false;
    for (char ch : message) {
        if (ch == '"') {
            if (!quoted)
                out += "\"*\"";
            quoted = !quoted;
            continue;
        }
        if (!quoted)
            out += ch;
    }
    while (!out.empty() && (out.back() == '.' || out.back() == '\n'))
        out.pop_back();
    return out.empty() ? std::string("unknown") : out;
}

} // namespace drasim::sim
