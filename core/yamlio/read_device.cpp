// SPDX-License-Identifier: Apache-2.0
// One device of a ResourceSlice, read and validated like validateDevice of the API server
// (dra-semantics.md §2.1): its messages, its field paths (the internal ones, without v1beta1's
// `basic`) and its order of checks.
#include "core/yamlio/read_device.h"

#include <set>

#include "core/common/semver.h"
#include "core/yamlio/capacity_policy.h"
#include "core/yamlio/names.h"

namespace drasim::yamlio {

namespace {

constexpr size_t kMaxAttributesAndCapacities = 32;
constexpr size_t kMaxTaints = 16;
constexpr size_t kMaxCounters = 32; // per counter set and per consumption
constexpr size_t kMaxConsumesCounters = 2;
constexpr size_t kMaxCompatibilityGroups = 2;
constexpr size_t kMaxBindingConditions = 4;
constexpr size_t kMaxAttributeStringLength = 64;

/// Where the fields of a device were written, for the checks across them.
struct DeviceNodes
{
    /// Per-device node selection fields written at all (for the message without
    /// perDeviceNodeSelection), and those that count as set (non-empty nodeName, a nodeSelector,
    /// allNodes true) with the API server's names.
    uint32_t anyNodeField = 0;
    std::vector<std::pair<std::string, uint32_t>> nodeFields;
    std::vector<std::pair<std::string, CapacityPolicyNodes>> policies;
    uint32_t bindingConditions = 0, bindingFailureConditions = 0;
};

void tooLong(Reader& r, uint32_t n, const Path& p, size_t max)
{
    r.error(n, p, "Too long: must have at most " + std::to_string(max) + " bytes");
}

// validateDeviceAttribute: exactly one of the value fields, strings and versions at most 64 bytes,
// versions semver 2.0.0.
bool readAttribute(Reader& r, uint32_t n, const Path& p, api::DeviceAttribute& out)
{
    int values = 0;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (r.isNull(v))
            return k == "int" || k == "bool" || k == "string" || k == "version";
        if (k == "int") {
            ++values;
            out.type = api::DeviceAttribute::Type::Int;
            r.getInt(v, fp, out.intValue);
        } else if (k == "bool") {
            ++values;
            out.type = api::DeviceAttribute::Type::Bool;
            r.getBool(v, fp, out.boolValue);
        } else if (k == "string") {
            ++values;
            out.type = api::DeviceAttribute::Type::String;
            if (r.getString(v, fp, out.stringValue) && out.stringValue.size() > kMaxAttributeStringLength)
                tooLong(r, v, fp, kMaxAttributeStringLength);
        } else if (k == "version") {
            ++values;
            out.type = api::DeviceAttribute::Type::Version;
            if (r.getString(v, fp, out.stringValue)) {
                std::string why;
                if (!SemVer::parse(out.stringValue, false, &why))
                    r.invalid(
                        v, fp, out.stringValue, "must be a string compatible with semver.org spec 2.0.0");
                if (out.stringValue.size() > kMaxAttributeStringLength)
                    tooLong(r, v, fp, kMaxAttributeStringLength);
            }
        } else if (k == "ints" || k == "bools" || k == "strings" || k == "versions") {
            ++values;
            r.error(v, fp,
                "Unsupported value: list-typed attributes (feature gate DRAListTypeAttributes, alpha) "
                "are not modelled by drasim");
        } else {
            return false;
        }
        return true;
    });
    // Upstream prints the attribute it got; with several values that is a Go struct of pointers,
    // which carries nothing for a reader, so only the empty one is shown.
    if (values != 1 && r.nodeKind(n) == YamlNode::Kind::Map)
        r.error(n, p,
            values == 0 ? "Invalid value: \"\": exactly one value must be specified"
                        : "Invalid value: exactly one value must be specified");
    return values == 1;
}

void readDeviceTaints(Reader& r, uint32_t n, const Path& p, std::vector<api::DeviceTaint>& out)
{
    if (r.listSize(n) > kMaxTaints) {
        r.tooMany(n, p, r.listSize(n), kMaxTaints);
        return;
    }
    r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceTaint t;
        readDeviceTaint(r, item, ip, t);
        out.push_back(std::move(t));
    });
}

void readCapacities(
    Reader& r, uint32_t v, const Path& fp, ResourceVersion ver, api::Device& d, DeviceNodes& at)
{
    r.fields(v, fp, [&](std::string_view name, uint32_t keyNode, uint32_t cv) {
        const Path cp = fp.key(name);
        reportNameIssues(r, keyNode, fp, qualifiedNameIssues(name, false)); // validateMap: the map's path
        api::DeviceCapacity c;
        if (ver == ResourceVersion::V1alpha3) {
            r.getQuantity(cv, cp, c.value); // v1alpha3: plain quantities
        } else {
            // A missing value is the zero quantity, which the API server accepts.
            r.fields(cv, cp, [&](std::string_view ck, uint32_t, uint32_t x) {
                if (ck == "value")
                    r.getQuantity(x, cp.field(ck), c.value);
                else if (ck == "requestPolicy") {
                    if (r.isNull(x) || clearedByGate(r, x, cp.field(ck), api::gateOfCapacityField(ck)))
                        return true;
                    CapacityPolicyNodes policyNodes;
                    readCapacityPolicy(r, x, cp.field(ck), c.requestPolicy.emplace(), policyNodes);
                    at.policies.emplace_back(std::string(name), std::move(policyNodes));
                } else
                    return false;
                return true;
            });
        }
        d.capacity[std::string(name)] = std::move(c);
        return true;
    });
}

// consumesCounters[].compatibilityGroups (DRADeviceCompatibilityGroups, 1.37 alpha): at most 2
// opaque names, each once. With the gate off the API server clears the field.
void readCompatibilityGroups(Reader& r, uint32_t v, const Path& p, std::vector<std::string>& out)
{
    if (r.isNull(v) || clearedByGate(r, v, p, api::gateOfCounterConsumptionField("compatibilityGroups")))
        return;
    if (r.listSize(v) > kMaxCompatibilityGroups) {
        r.tooMany(v, p, r.listSize(v), kMaxCompatibilityGroups);
        return;
    }
    std::set<std::string> seen;
    r.items(v, p, [&](size_t, uint32_t item, const Path& ip) {
        std::string name;
        r.getString(item, ip, name);
        if (!seen.insert(name).second)
            r.duplicate(item, ip, name);
        out.push_back(std::move(name));
    });
}

// validateSet of consumesCounters: at most 2 (short-circuits), each validated, unique counterSet.
void readConsumesCounters(Reader& r, uint32_t v, const Path& fp, api::Device& d)
{
    if (r.listSize(v) > kMaxConsumesCounters) {
        r.tooMany(v, fp, r.listSize(v), kMaxConsumesCounters);
        return;
    }
    std::set<std::string> sets;
    r.items(v, fp, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceCounterConsumption c;
        uint32_t setNode = item;
        bool haveCounters = false;
        r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t x) {
            if (ck == "counterSet")
                setNode = x, r.getString(x, ip.field(ck), c.counterSet);
            else if (ck == "counters") {
                haveCounters = !r.isNull(x);
                if (haveCounters)
                    readCounterMap(r, x, ip.field(ck), c.counters);
            } else if (ck == "compatibilityGroups") {
                readCompatibilityGroups(r, x, ip.field(ck), c.compatibilityGroups);
            } else
                return false;
            return true;
        });
        checkName(r, setNode, ip.field("counterSet"), c.counterSet, checkDnsLabel);
        if (!haveCounters)
            r.required(item, ip.field("counters"));
        if (!sets.insert(c.counterSet).second)
            r.duplicate(item, ip, c.counterSet);
        d.consumesCounters.push_back(std::move(c));
    });
}

// KEP-5517's field: nodeAllocatableResources in 1.37, nodeAllocatableResourceMappings (another
// shape, not modelled) in 1.36, neither in 1.35 nor in v1alpha3; cleared while the gate is off.
bool readNodeAllocatableField(
    Reader& r, std::string_view k, uint32_t v, const Path& fp, bool v1alpha3, api::Device& d)
{
    const auto version = r.gates().version();
    const bool current = k == "nodeAllocatableResources";
    if (v1alpha3 || version != (current ? api::KubernetesVersion::V1_37 : api::KubernetesVersion::V1_36))
        return false;
    if (clearedByGate(r, v, fp, "DRANodeAllocatableResources"))
        return true;
    if (current)
        readNodeAllocatableResources(r, v, fp, d.nodeAllocatableResources);
    else
        r.error(v, fp,
            "Forbidden: Kubernetes 1.36's node-allocatable mappings are not modelled; drasim follows the "
            "1.37 API (nodeAllocatableResources, kubernetesVersion \"1.37\")");
    return true;
}

// Fields of a device (v1/v1beta2 directly on the device, v1beta1/v1alpha3 under `basic`).
bool readDeviceField(Reader& r, std::string_view k, uint32_t v, const Path& p, ResourceVersion ver,
    api::Device& d, DeviceNodes& at)
{
    const Path fp = p.field(k);
    const bool v1alpha3 = ver == ResourceVersion::V1alpha3;
    if (!v1alpha3 && clearedByGate(r, v, fp, api::gateOfDeviceField(k)))
        return true;
    if (k == "attributes") {
        r.fields(v, fp, [&](std::string_view name, uint32_t keyNode, uint32_t av) {
            const Path ap = fp.key(name);
            reportNameIssues(r, keyNode, fp, qualifiedNameIssues(name, false)); // validateMap: the map's path
            api::DeviceAttribute a;
            if (readAttribute(r, av, ap, a))
                d.attributes[std::string(name)] = a;
            return true;
        });
    } else if (k == "capacity") {
        readCapacities(r, v, fp, ver, d, at);
    } else if (k == "consumesCounters" && !v1alpha3) {
        readConsumesCounters(r, v, fp, d);
    } else if (k == "nodeName" && !v1alpha3) {
        std::string s;
        if (r.getString(v, fp, s)) {
            d.nodeName = s;
            at.anyNodeField = at.anyNodeField ? at.anyNodeField : v;
        }
    } else if (k == "nodeSelector" && !v1alpha3) {
        api::NodeSelector sel;
        readNodeSelector(r, v, fp, sel);
        if (!r.isNull(v)) {
            d.nodeSelector = std::move(sel);
            at.anyNodeField = at.anyNodeField ? at.anyNodeField : v;
        }
    } else if (k == "allNodes" && !v1alpha3) {
        bool b = false;
        if (r.getBool(v, fp, b)) {
            d.allNodes = b;
            at.anyNodeField = at.anyNodeField ? at.anyNodeField : v;
        }
    } else if (k == "taints" && !v1alpha3) {
        readDeviceTaints(r, v, fp, d.taints);
    } else if (k == "bindsToNode" && !v1alpha3) {
        bool b = false;
        if (r.getBool(v, fp, b))
            d.bindsToNode = b;
    } else if ((k == "bindingConditions" || k == "bindingFailureConditions") && !v1alpha3) {
        (k == "bindingConditions" ? at.bindingConditions : at.bindingFailureConditions) = v;
        r.getStringList(v, fp, k == "bindingConditions" ? d.bindingConditions : d.bindingFailureConditions);
    } else if (k == "allowMultipleAllocations" && !v1alpha3) {
        bool b = false;
        if (r.getBool(v, fp, b))
            d.allowMultipleAllocations = b;
    } else if (k == "nodeAllocatableResources" || k == "nodeAllocatableResourceMappings") {
        return readNodeAllocatableField(r, k, v, fp, v1alpha3, d);
    } else {
        return false;
    }
    return true;
}

// The per-device node selection part of validateDevice.
void checkDeviceNodeSelection(Reader& r, uint32_t n, const Path& p, bool perDeviceNodeSelection,
    const api::Device& d, const DeviceNodes& at)
{
    if (!perDeviceNodeSelection) {
        if (at.anyNodeField)
            r.error(at.anyNodeField, p,
                "Invalid value: \"null\": `nodeName`, `nodeSelector` and `allNodes` can only be set if "
                "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
        return;
    }
    std::vector<std::string> set;
    if (d.nodeName) {
        if (d.nodeName->empty())
            r.invalid(at.anyNodeField, p.field("nodeName"), "", "must not be empty");
        else {
            set.push_back("`nodeName`");
            if (auto e = checkDnsSubdomain(*d.nodeName); !e.empty())
                r.invalid(at.anyNodeField, p.field("nodeName"), *d.nodeName, e);
        }
    }
    if (d.nodeSelector)
        set.push_back("`nodeSelector`");
    if (d.allNodes) {
        if (*d.allNodes)
            set.push_back("`allNodes`");
        else
            r.error(at.anyNodeField, p.field("allNodes"),
                "Invalid value: false: must be either unset or set to true");
    }
    const std::string rule = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                             "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
    if (set.empty())
        r.error(n, p, "Required value: " + rule);
    else if (set.size() > 1) {
        std::string listed;
        for (const auto& s : set)
            listed += (listed.empty() ? "" : ", ") + s;
        r.error(at.anyNodeField, p, "Invalid value: \"{" + listed + "}\": " + rule);
    }
}

// validateDeviceBindingParameters: at most 4 of each (short-circuits that list), label-key names,
// no duplicates within a list, no overlap, and both or neither.
void checkBindingConditions(Reader& r, uint32_t n, const Path& p, const api::Device& d, const DeviceNodes& at)
{
    const Path condPath = p.field("bindingConditions"), failPath = p.field("bindingFailureConditions");
    auto checkList = [&](const std::vector<std::string>& list, uint32_t node, const Path& lp) {
        if (list.size() > kMaxBindingConditions) {
            r.tooMany(node, lp, list.size(), kMaxBindingConditions);
            return;
        }
        for (size_t i = 0; i < list.size(); ++i)
            if (auto e = checkLabelKey(list[i]); !e.empty())
                r.invalid(r.listItem(node, i), lp.at(i), list[i], e);
    };
    checkList(d.bindingConditions, at.bindingConditions, condPath);
    checkList(d.bindingFailureConditions, at.bindingFailureConditions, failPath);
    std::set<std::string> conditions(d.bindingConditions.begin(), d.bindingConditions.end());
    std::set<std::string> seen;
    for (size_t i = 0; i < d.bindingConditions.size(); ++i)
        if (!seen.insert(d.bindingConditions[i]).second)
            r.duplicate(r.listItem(at.bindingConditions, i), condPath.at(i), d.bindingConditions[i]);
    seen.clear();
    for (size_t i = 0; i < d.bindingFailureConditions.size(); ++i) {
        const std::string& c = d.bindingFailureConditions[i];
        const uint32_t item = r.listItem(at.bindingFailureConditions, i);
        if (!seen.insert(c).second)
            r.duplicate(item, failPath.at(i), c);
        if (conditions.count(c))
            r.invalid(
                item, failPath.at(i), c, "bindingFailureConditions must not overlap with bindingConditions");
    }
    // Go's %#v of the empty list: nil when the field is absent or null, {} when written empty.
    auto goList = [&](uint32_t node) { return node && !r.isNull(node) ? "[]string{}" : "[]string(nil)"; };
    if (d.bindingConditions.empty() && !d.bindingFailureConditions.empty())
        r.error(at.bindingConditions ? at.bindingConditions : n, condPath,
            std::string("Invalid value: ") + goList(at.bindingConditions)
                + ": bindingConditions are required to use bindingFailureConditions");
    if (d.bindingFailureConditions.empty() && !d.bindingConditions.empty())
        r.error(at.bindingFailureConditions ? at.bindingFailureConditions : n, failPath,
            std::string("Invalid value: ") + goList(at.bindingFailureConditions)
                + ": bindingFailureConditions are required to use bindingConditions");
}

} // namespace

bool clearedByGate(Reader& r, uint32_t v, const Path& p, const char* gate)
{
    if (!gate || r.gates().enabled(gate))
        return false;
    if (!r.isNull(v))
        r.warning(v, p,
            "dropped: feature gate " + std::string(gate)
                + " is disabled, so the API server clears this field");
    return true;
}

void readDevice(
    Reader& r, uint32_t n, const Path& p, ResourceVersion ver, bool perDeviceNodeSelection, api::Device& d)
{
    uint32_t nameNode = n;
    DeviceNodes at;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "name") {
            nameNode = v;
            r.getString(v, p.field(k), d.name);
            return true;
        }
        if (legacyDevice(ver)) {
            if (k != "basic")
                return false;
            const Path bp = p.field(k); // unknown fields are reported where they were written
            r.fields(v, bp, [&](std::string_view bk, uint32_t, uint32_t bv) {
                return readDeviceField(r, bk, bv, p, ver, d, at);
            });
            return true;
        }
        return readDeviceField(r, k, v, p, ver, d, at);
    });
    d.pos = r.pos(n);
    checkName(r, nameNode, p.field("name"), d.name, checkDnsLabel);
    const size_t entries = d.attributes.size() + d.capacity.size();
    if (entries > kMaxAttributesAndCapacities)
        r.error(n, p,
            "Invalid value: " + std::to_string(entries)
                + ": the total number of attributes and capacities must not exceed 32");
    const Path capacityPath = p.field("capacity");
    for (const auto& [name, policyNodes] : at.policies) {
        const Path cp = capacityPath.key(name);
        const Path policyPath = cp.field("requestPolicy");
        const auto& capacity = d.capacity.at(name);
        validateCapacityPolicy(r, policyNodes, policyPath, *capacity.requestPolicy, capacity.value,
            d.allowMultipleAllocations.value_or(false));
    }
    checkDeviceNodeSelection(r, n, p, perDeviceNodeSelection, d, at);
    checkBindingConditions(r, n, p, d, at);
}

void readCounterMap(Reader& r, uint32_t n, const Path& p, std::map<std::string, Quantity>& out)
{
    if (r.nodeKind(n) == YamlNode::Kind::Map && r.mapSize(n) > kMaxCounters) {
        r.tooMany(n, p, r.mapSize(n), kMaxCounters);
        return;
    }
    r.fields(n, p, [&](std::string_view k, uint32_t keyNode, uint32_t v) {
        const Path kp = p.key(k);
        if (auto e = checkDnsLabel(k); !e.empty())
            r.invalid(keyNode, p, k, e);
        Quantity q; // a counter without a value counts zero, which the API server accepts
        r.fields(v, kp, [&](std::string_view ck, uint32_t, uint32_t cv) {
            if (ck != "value")
                return false;
            r.getQuantity(cv, kp.field(ck), q);
            return true;
        });
        out[std::string(k)] = q;
        return true;
    });
    if (out.empty() && r.nodeKind(n) == YamlNode::Kind::Map)
        r.required(n, p);
}

void readDeviceTaint(Reader& r, uint32_t item, const Path& ip, api::DeviceTaint& t)
{
    uint32_t keyNode = item, effectNode = item, valueNode = item;
    r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "key")
            keyNode = v, r.getString(v, ip.field(k), t.key);
        else if (k == "value")
            valueNode = v, r.getString(v, ip.field(k), t.value);
        else if (k == "effect")
            effectNode = v, r.getString(v, ip.field(k), t.effect);
        else if (k == "timeAdded")
            r.getString(v, ip.field(k), t.timeAdded);
        else
            return false;
        return true;
    });
    checkName(r, keyNode, ip.field("key"), t.key, checkLabelKey);
    if (auto e = checkLabelValue(t.value); !e.empty())
        r.invalid(valueNode, ip.field("value"), t.value, e);
    if (t.effect.empty())
        r.required(effectNode, ip.field("effect"));
    else if (t.effect != "None" && t.effect != "NoSchedule" && t.effect != "NoExecute")
        r.unsupported(effectNode, ip.field("effect"), t.effect, { "NoExecute", "NoSchedule", "None" });
}

} // namespace drasim::yamlio
