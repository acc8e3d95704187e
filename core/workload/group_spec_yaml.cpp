// SPDX-License-Identifier: Apache-2.0
#include "core/workload/group_spec_yaml.h"

#include <string_view>

#include "core/yamlio/names.h"

namespace drasim::workload {

using yamlio::YamlNode;

namespace {

/// MaxPodGroupResourceClaims (scheduling.k8s.io validation).
constexpr size_t kMaxGroupResourceClaims = 4;

/// gang: {minCount: N}. minCount is optional (the Job controller defaults it to parallelism) but
/// positive when given, as batch/v1 validates JobSchedulingConfiguration.
void gangFrom(const YamlNode& node, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    g.gang = true;
    if (node.isNull())
        return;
    c.fields(node, field, "minCount", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key != "minCount")
            return false;
        if (auto n = c.integer(v, sub, INT32_MIN, INT32_MAX)) {
            if (*n < 1)
                c.error(v, sub, "Invalid value: " + std::to_string(*n) + ": must be greater than zero");
            else
                g.minCount = int32_t(*n);
        }
        return true;
    });
}

/// schedulingPolicy: exactly one of basic and gang, in the words of the API server's union
/// validation (validatePodGroupSchedulingPolicy).
void policyFrom(const YamlNode& node, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    int policies = 0;
    const bool map = c.fields(
        node, field, "basic, gang", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "basic") {
                if (!v.isNull() && c.fields(v, sub, [](auto&&...) { return false; }))
                    ++policies;
                return true;
            }
            if (key != "gang")
                return false;
            policies += v.isNull() ? 0 : 1;
            gangFrom(v, sub, g, c);
            return true;
        });
    if (!map)
        return;
    if (policies == 0)
        c.error(node, field, "Invalid value: \"\": must specify one of: `basic`, `gang`");
    else if (policies > 1)
        c.error(node, field,
            "Invalid value: \"{`basic`, `gang`}\": exactly one of `basic`, `gang` is required, but multiple "
            "fields are set");
}

/// topology: [{key: LABEL}], at most one entry, the key a label key.
void topologyFrom(const YamlNode& list, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    c.items(list, field, [&](const YamlNode& item, const std::string& ipath) {
        const bool map = c.fields(
            item, ipath, "key", [&](const std::string& k, const YamlNode& kv, const std::string& ksub) {
                if (k != "key")
                    return false;
                if (auto s = c.string(kv, ksub)) {
                    if (auto e = yamlio::checkLabelKey(*s); !e.empty())
                        c.error(kv, ksub, "Invalid value: \"" + *s + "\": " + e);
                    else
                        g.topologyKey = *s;
                }
                return true;
            });
        if (map && !item.get("key"))
            c.required(item, yamlio::joinPath(ipath, "key"));
    });
    if (list.items.size() > 1)
        c.error(
            list, field, "Too many: " + std::to_string(list.items.size()) + ": must have at most 1 items");
}

void constraintsFrom(const YamlNode& node, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    c.fields(node, field, "topology", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
        if (key != "topology")
            return false;
        topologyFrom(v, sub, g, c);
        return true;
    });
}

/// disruptionMode: {single: {}} | {all: {}}, the 1.37 union, with the API server's union messages.
void disruptionModeFrom(const YamlNode& node, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    int modes = 0;
    const bool map = c.fields(
        node, field, "single, all", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key != "single" && key != "all")
                return false;
            if (!v.isNull() && c.fields(v, sub, [](auto&&...) { return false; })) {
                ++modes;
                g.disruptAll = key == "all";
            }
            return true;
        });
    if (!map)
        return;
    if (modes == 0)
        c.error(node, field, "Invalid value: \"\": must specify one of: `single`, `all`");
    else if (modes > 1)
        c.error(node, field,
            "Invalid value: \"{`single`, `all`}\": exactly one of `single`, `all` is required, but multiple "
            "fields are set");
}

/// A name field: Required value when empty, else `check`'s message.
void checkName(const YamlNode& at, const std::string& path, const std::string& value,
    std::string (*check)(std::string_view), yamlio::DocReader& c)
{
    if (value.empty())
        c.required(at, path);
    else if (auto e = check(value); !e.empty())
        c.invalid(at, path, value, e);
}

std::string checkSubdomain(std::string_view s)
{
    return yamlio::checkDnsSubdomain(s);
}

/// One resourceClaims entry, as the API server validates a PodGroupResourceClaim
/// (validatePodGroupResourceClaims): a DNS label name and exactly one of a claim's name and a
/// template's name, each a DNS subdomain.
api::PodGroupResourceClaim groupClaimFrom(const YamlNode& item, const std::string& path, yamlio::DocReader& c)
{
    api::PodGroupResourceClaim claim;
    const YamlNode* nameNode = &item;
    const bool map = c.fields(item, path, "name, resourceClaimName, resourceClaimTemplateName",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "name") {
                nameNode = &v;
                claim.name = c.string(v, sub).value_or("");
            } else if (key == "resourceClaimName") {
                claim.resourceClaimName = c.string(v, sub);
            } else if (key == "resourceClaimTemplateName") {
                claim.resourceClaimTemplateName = c.string(v, sub);
            } else {
                return false;
            }
            return true;
        });
    if (!map)
        return claim;
    checkName(*nameNode, yamlio::joinPath(path, "name"), claim.name, yamlio::checkDnsLabel, c);
    if (claim.resourceClaimName.has_value() == claim.resourceClaimTemplateName.has_value())
        c.error(item, path,
            "Invalid value: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
    if (claim.resourceClaimName)
        checkName(*item.get("resourceClaimName"), yamlio::joinPath(path, "resourceClaimName"),
            *claim.resourceClaimName, checkSubdomain, c);
    if (claim.resourceClaimTemplateName)
        checkName(*item.get("resourceClaimTemplateName"), yamlio::joinPath(path, "resourceClaimTemplateName"),
            *claim.resourceClaimTemplateName, checkSubdomain, c);
    return claim;
}

/// resourceClaims: at most 4 entries (MaxPodGroupResourceClaims), names unique.
void resourceClaimsFrom(const YamlNode& list, const std::string& field, GroupSpec& g, yamlio::DocReader& c)
{
    c.items(list, field, [&](const YamlNode& item, const std::string& ipath) {
        api::PodGroupResourceClaim claim = groupClaimFrom(item, ipath, c);
        for (const auto& other : g.resourceClaims)
            if (!claim.name.empty() && other.name == claim.name)
                c.duplicate(
                    item.get("name") ? *item.get("name") : item, yamlio::joinPath(ipath, "name"), claim.name);
        g.resourceClaims.push_back(std::move(claim));
    });
    if (g.resourceClaims.size() > kMaxGroupResourceClaims)
        c.error(list, field,
            "Too many: " + std::to_string(g.resourceClaims.size()) + ": must have at most "
                + std::to_string(kMaxGroupResourceClaims) + " items");
}

} // namespace

std::optional<GroupSpec> groupSpecFrom(const YamlNode& node, const std::string& field, yamlio::DocReader& c)
{
    GroupSpec g;
    const bool map
        = c.fields(node, field, "schedulingPolicy, schedulingConstraints, disruptionMode, resourceClaims",
            [&](const std::string& key, const YamlNode& v, const std::string& sub) {
                if (key == "schedulingPolicy")
                    policyFrom(v, sub, g, c);
                else if (key == "schedulingConstraints")
                    constraintsFrom(v, sub, g, c);
                else if (key == "disruptionMode")
                    disruptionModeFrom(v, sub, g, c);
                else if (key == "resourceClaims")
                    resourceClaimsFrom(v, sub, g, c);
                else
                    return false;
                return true;
            });
    if (!map)
        return std::nullopt;
    return g; // no schedulingPolicy: basic, as the Job controller defaults it
}

} // namespace drasim::workload
