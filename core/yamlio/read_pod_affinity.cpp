// SPDX-License-Identifier: Apache-2.0
// spec.affinity.podAffinity / podAntiAffinity and spec.topologySpreadConstraints, validated as the
// API server's ValidateAffinity (validatePodAffinityTerm, validateWeightedPodAffinityTerms) and
// ValidateTopologySpreadConstraints do (pkg/apis/core/validation/validation.go), with the same
// field paths and wording.
#include <set>

#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

constexpr const char* kNotPositive = "must be greater than zero";

/// validateTopologyKey / the term's topologyKey: required, then a qualified label name.
void checkTopologyKey(Reader& r, uint32_t at, const Path& p, const std::string& key)
{
    if (key.empty())
        r.error(at, p, "Required value: can not be empty");
    else if (auto e = checkLabelKey(key); !e.empty())
        r.invalid(at, p, key, e);
}

/// matchLabelKeys / mismatchLabelKeys: label names, none also named by the label selector
/// (validateMatchLabelKeysAndMismatchLabelKeys, validateMatchLabelKeysInTopologySpread).
void checkLabelKeys(Reader& r, uint32_t list, const Path& p, const std::vector<std::string>& keys,
    const std::optional<api::LabelSelector>& selector)
{
    for (size_t i = 0; i < keys.size(); ++i) {
        if (auto e = checkLabelKey(keys[i]); !e.empty()) {
            r.invalid(r.listItem(list, i), p.at(i), keys[i], e);
            continue;
        }
        if (!selector)
            continue;
        bool named = selector->matchLabels.count(keys[i]) > 0;
        for (const auto& req : selector->matchExpressions)
            named = named || req.key == keys[i];
        if (named)
            r.invalid(
                r.listItem(list, i), p.at(i), keys[i], "exists in both matchLabelKeys and labelSelector");
    }
}

void readAffinityTerm(Reader& r, uint32_t v, const Path& p, api::PodAffinityTerm& out)
{
    uint32_t keyNode = v, matchNode = v, mismatchNode = v, nsNode = v;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "labelSelector")
            readLabelSelector(r, fv, fp, out.labelSelector);
        else if (k == "namespaceSelector")
            readLabelSelector(r, fv, fp, out.namespaceSelector);
        else if (k == "namespaces")
            nsNode = fv, r.getStringList(fv, fp, out.namespaces);
        else if (k == "topologyKey")
            keyNode = fv, r.getString(fv, fp, out.topologyKey);
        else if (k == "matchLabelKeys")
            matchNode = fv, r.getStringList(fv, fp, out.matchLabelKeys);
        else if (k == "mismatchLabelKeys")
            mismatchNode = fv, r.getStringList(fv, fp, out.mismatchLabelKeys);
        else
            return false;
        return true;
    });
    // The API server reports a bad namespace at "namespace" (sic), once per message.
    for (size_t i = 0; i < out.namespaces.size(); ++i)
        if (auto e = checkDnsLabel(out.namespaces[i]); !e.empty())
            r.invalid(r.listItem(nsNode, i), p.field("namespace"), out.namespaces[i], e);
    checkTopologyKey(r, keyNode, p.field("topologyKey"), out.topologyKey);
    checkLabelKeys(r, matchNode, p.field("matchLabelKeys"), out.matchLabelKeys, out.labelSelector);
    checkLabelKeys(r, mismatchNode, p.field("mismatchLabelKeys"), out.mismatchLabelKeys, out.labelSelector);
    for (size_t i = 0; i < out.mismatchLabelKeys.size(); ++i)
        for (const auto& key : out.matchLabelKeys)
            if (key == out.mismatchLabelKeys[i])
                r.invalid(r.listItem(mismatchNode, i), p.field("mismatchLabelKeys").at(i), key,
                    "exists in both matchLabelKeys and mismatchLabelKeys");
}

void readWeightedTerm(Reader& r, uint32_t v, const Path& p, api::WeightedPodAffinityTerm& out)
{
    uint32_t weightNode = v;
    bool sawTerm = false;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k == "weight")
            weightNode = fv, r.getInt32(fv, p.field(k), out.weight);
        else if (k == "podAffinityTerm")
            sawTerm = true, readAffinityTerm(r, fv, p.field(k), out.term);
        else
            return false;
        return true;
    });
    if (out.weight <= 0 || out.weight > 100)
        r.error(weightNode, p.field("weight"),
            "Invalid value: " + std::to_string(out.weight) + ": must be in the range 1-100");
    if (!sawTerm)
        checkTopologyKey(r, v, p.field("podAffinityTerm").field("topologyKey"), out.term.topologyKey);
}

/// whenUnsatisfiable, nodeAffinityPolicy, nodeTaintsPolicy: one of two values.
bool readChoice(Reader& r, uint32_t v, const Path& p, const char* yes, const char* no, bool& out)
{
    std::string s;
    if (!r.getString(v, p, s))
        return false;
    if (s != yes && s != no) {
        r.unsupported(v, p, s, { yes, no }); // both pairs sort this way, as the API server lists them
        return false;
    }
    out = s == yes;
    return true;
}

void readSpreadConstraint(Reader& r, uint32_t v, const Path& p, api::TopologySpreadConstraint& out)
{
    uint32_t skewNode = v, keyNode = v, whenNode = v, minNode = v, keysNode = v;
    bool sawWhen = false;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "maxSkew")
            skewNode = fv, r.getInt32(fv, fp, out.maxSkew);
        else if (k == "topologyKey")
            keyNode = fv, r.getString(fv, fp, out.topologyKey);
        else if (k == "whenUnsatisfiable") {
            whenNode = fv;
            sawWhen = readChoice(r, fv, fp, "DoNotSchedule", "ScheduleAnyway", out.doNotSchedule);
        } else if (k == "labelSelector")
            readLabelSelector(r, fv, fp, out.labelSelector);
        else if (k == "minDomains") {
            int32_t n = 0;
            if (!r.isNull(fv) && r.getInt32(fv, fp, n))
                minNode = fv, out.minDomains = n;
        } else if (k == "nodeAffinityPolicy")
            readChoice(r, fv, fp, "Honor", "Ignore", out.honorNodeAffinity);
        else if (k == "nodeTaintsPolicy")
            readChoice(r, fv, fp, "Honor", "Ignore", out.honorNodeTaints);
        else if (k == "matchLabelKeys")
            keysNode = fv, r.getStringList(fv, fp, out.matchLabelKeys);
        else
            return false;
        return true;
    });
    if (out.maxSkew <= 0)
        r.error(skewNode, p.field("maxSkew"),
            "Invalid value: " + std::to_string(out.maxSkew) + ": " + kNotPositive);
    checkTopologyKey(r, keyNode, p.field("topologyKey"), out.topologyKey);
    if (!sawWhen && whenNode == v)
        r.unsupported(v, p.field("whenUnsatisfiable"), "", { "DoNotSchedule", "ScheduleAnyway" });
    if (out.minDomains) {
        const std::string value = "Invalid value: " + std::to_string(*out.minDomains) + ": ";
        if (*out.minDomains <= 0)
            r.error(minNode, p.field("minDomains"), value + kNotPositive);
        else if (!out.doNotSchedule)
            r.error(minNode, p.field("minDomains"),
                value + "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway");
    }
    checkLabelKeys(r, keysNode, p.field("matchLabelKeys"), out.matchLabelKeys, out.labelSelector);
}

} // namespace

void readPodAffinityRules(Reader& r, uint32_t v, const Path& p, std::optional<api::PodAffinityRules>& out)
{
    if (r.isNull(v))
        return;
    api::PodAffinityRules rules;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "requiredDuringSchedulingIgnoredDuringExecution")
            r.items(fv, fp, [&](size_t, uint32_t item, const Path& ip) {
                readAffinityTerm(r, item, ip, rules.required.emplace_back());
            });
        else if (k == "preferredDuringSchedulingIgnoredDuringExecution")
            r.items(fv, fp, [&](size_t, uint32_t item, const Path& ip) {
                readWeightedTerm(r, item, ip, rules.preferred.emplace_back());
            });
        else
            return false;
        return true;
    });
    out = std::move(rules);
}

void readTopologySpreadConstraints(
    Reader& r, uint32_t v, const Path& p, std::vector<api::TopologySpreadConstraint>& out)
{
    r.items(v, p, [&](size_t, uint32_t item, const Path& ip) {
        readSpreadConstraint(r, item, ip, out.emplace_back());
    });
    // ValidateSpreadConstraintNotRepeat: a {topologyKey, whenUnsatisfiable} pair given twice is
    // reported at the first of the two.
    for (size_t i = 0; i < out.size(); ++i)
        for (size_t j = i + 1; j < out.size(); ++j)
            if (out[i].topologyKey == out[j].topologyKey && out[i].doNotSchedule == out[j].doNotSchedule) {
                r.duplicate(r.listItem(v, i), p.at(i).field("{topologyKey, whenUnsatisfiable}"),
                    "{" + out[i].topologyKey + ", "
                        + (out[i].doNotSchedule ? "DoNotSchedule" : "ScheduleAnyway") + "}");
                break;
            }
}

} // namespace drasim::yamlio
