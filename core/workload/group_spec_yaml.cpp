// SPDX-License-Identifier: Apache-2.0
#include "core/workload/group_spec_yaml.h"

#include "core/yamlio/names.h"

namespace drasim::workload {

using yamlio::YamlNode;

namespace {

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

} // namespace

std::optional<GroupSpec> groupSpecFrom(const YamlNode& node, const std::string& field, yamlio::DocReader& c)
{
    GroupSpec g;
    const bool map = c.fields(node, field, "schedulingPolicy, schedulingConstraints, disruptionMode",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "schedulingPolicy")
                policyFrom(v, sub, g, c);
            else if (key == "schedulingConstraints")
                constraintsFrom(v, sub, g, c);
            else if (key == "disruptionMode")
                disruptionModeFrom(v, sub, g, c);
            else
                return false;
            return true;
        });
    if (!map)
        return std::nullopt;
    return g; // no schedulingPolicy: basic, as the Job controller defaults it
}

} // namespace drasim::workload
