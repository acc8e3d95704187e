// SPDX-License-Identifier: Apache-2.0
// scheduling.k8s.io Workload, PodGroup and CompositePodGroup in every version Kubernetes 1.35-1.37
// serves (v1alpha1, v1alpha2, v1beta1, v1alpha3), read into one form and validated as
// pkg/apis/scheduling/validation does; fields behind a feature gate that is off are refused as the
// API server refuses them. PriorityClass (scheduling.k8s.io/v1) is read here too.
#include <functional>
#include <set>

#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

using api::SchedulingVersion;

// Upstream limits (scheduling/v1beta1 types.go): WorkloadMaxPodGroupTemplates,
// MaxPodGroupResourceClaims, WorkloadMaxTreeDepth; HighestUserDefinablePriority (scheduling
// types.go).
constexpr size_t kMaxTemplates = 8;
constexpr size_t kMaxResourceClaims = 4;
constexpr size_t kMaxTreeDepth = 4;
constexpr int64_t kHighestUserDefinablePriority = 1000000000;

/// What kind of group a policy belongs to: composites count child groups (minGroupCount) and
/// hold no claims.
enum class GroupKind { Leaf, Composite };

struct Ctx
{
    Reader& r;
    SchedulingVersion v;
    bool v1alpha1() const { return v == SchedulingVersion::V1alpha1; }
    bool v1alpha2() const { return v == SchedulingVersion::V1alpha2; }
    /// 1.37's versions (v1beta1 and v1alpha3 share their fields).
    bool v137() const { return v == SchedulingVersion::V1beta1 || v == SchedulingVersion::V1alpha3; }
    bool gate(std::string_view name) const { return r.gates().enabled(name); }
    /// A PodGroup whose status already names generated claims was stored while
    /// DRAWorkloadResourceClaims was on: turning the gate off later keeps the fields it uses, as
    /// the API server's dropDisabledPodGroupFields drops them only from objects that did not use
    /// them (pkg/registry/scheduling/podgroup/strategy.go).
    bool storedClaims = false;
};

// A field whose gate is off. Upstream answers field.Forbidden(path, "") ("Forbidden", e.g.
// "schedulingConstraints set with TAS disabled" in validation_test.go); the gate is named here so
// the reader sees why.
void forbiddenByGate(Ctx& c, uint32_t n, const Path& p, std::string_view gate)
{
    c.r.error(n, p, "Forbidden: feature gate " + std::string(gate) + " is disabled");
}

void checkRequiredName(
    Reader& r, uint32_t n, const Path& p, const std::string& value, std::string (*check)(std::string_view))
{
    if (value.empty())
        r.required(n, p);
    else if (auto e = check(value); !e.empty())
        r.invalid(n, p, value, e);
}

std::string checkSubdomain(std::string_view s)
{
    return checkDnsSubdomain(s);
}

/// An empty map as a union member ({basic: {}}, {single: {}}): any key is unknown.
bool readEmptyMember(Reader& r, uint32_t v, const Path& p)
{
    r.fields(v, p, [](std::string_view, uint32_t, uint32_t) { return false; });
    return !r.isNull(v);
}

/// The error of a union with `set` members given (validatePodGroupSchedulingPolicy's words).
void checkUnion(Reader& r, uint32_t n, const Path& p, const std::vector<std::string>& set, std::string_view a,
    std::string_view b)
{
    const std::string members = "`" + std::string(a) + "`, `" + std::string(b) + "`";
    if (set.empty())
        r.error(n, p, "Invalid value: \"\": must specify one of: " + members);
    else if (set.size() > 1)
        r.error(n, p,
            "Invalid value: \"{" + members + "}\": exactly one of " + members
                + " is required, but multiple fields are set");
}

void readSchedulingPolicy(Ctx& c, uint32_t n, const Path& p, GroupKind kind, api::GroupSchedulingPolicy& out)
{
    const std::string_view countName = kind == GroupKind::Composite ? "minGroupCount" : "minCount";
    std::vector<std::string> set;
    uint32_t gangNode = n, countNode = n;
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "basic") {
            if (readEmptyMember(c.r, v, fp))
                set.emplace_back(k);
        } else if (k == "gang") {
            gangNode = countNode = v;
            if (!c.r.isNull(v))
                set.emplace_back(k), out.gang = true;
            c.r.fields(v, fp, [&](std::string_view gk, uint32_t, uint32_t gv) {
                if (gk != countName)
                    return false;
                countNode = gv;
                c.r.getInt32(gv, fp.field(gk), out.minCount);
                return true;
            });
        } else {
            return false;
        }
        return true;
    });
    checkUnion(c.r, n, p, set, "basic", "gang");
    if (set.size() != 1 || !out.gang)
        return;
    // validateGangSchedulingPolicy: 0 reads as missing (Required), below 0 as not positive.
    const Path gp = p.field("gang");
    const Path cp = gp.field(countName);
    if (out.minCount == 0)
        c.r.required(gangNode == countNode ? gangNode : countNode, cp);
    else if (out.minCount < 0)
        c.r.error(
            countNode, cp, "Invalid value: " + std::to_string(out.minCount) + ": must be greater than zero");
}

void readTopology(Ctx& c, uint32_t n, const Path& p, std::vector<std::string>& keys)
{
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k != "topology")
            return false;
        const Path tp = p.field(k);
        c.r.items(v, tp, [&](size_t, uint32_t item, const Path& ip) {
            std::string key;
            uint32_t keyNode = item;
            c.r.fields(item, ip, [&](std::string_view tk, uint32_t, uint32_t tv) {
                if (tk != "key")
                    return false;
                keyNode = tv;
                c.r.getString(tv, ip.field(tk), key);
                return true;
            });
            checkRequiredName(c.r, keyNode, ip.field("key"), key, checkLabelKey);
            keys.push_back(std::move(key));
        });
        if (keys.size() > 1)
            c.r.tooMany(v, tp, keys.size(), 1);
        return true;
    });
}

void readResourceClaims(Ctx& c, uint32_t n, const Path& p, std::vector<api::PodGroupResourceClaim>& out)
{
    c.r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::PodGroupResourceClaim claim;
        uint32_t nameNode = item, refNode = item, templateNode = item;
        c.r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
            std::string s;
            if (k == "name")
                nameNode = v, c.r.getString(v, ip.field(k), claim.name);
            else if (k == "resourceClaimName" && c.r.getString(v, ip.field(k), s))
                refNode = v, claim.resourceClaimName = s;
            else if (k == "resourceClaimTemplateName" && c.r.getString(v, ip.field(k), s))
                templateNode = v, claim.resourceClaimTemplateName = s;
            else if (k != "resourceClaimName" && k != "resourceClaimTemplateName")
                return false;
            return true;
        });
        checkRequiredName(c.r, nameNode, ip.field("name"), claim.name, checkDnsLabel);
        if (claim.resourceClaimName.has_value() == claim.resourceClaimTemplateName.has_value())
            c.r.error(item, ip,
                "Invalid value: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
        if (claim.resourceClaimName)
            checkRequiredName(
                c.r, refNode, ip.field("resourceClaimName"), *claim.resourceClaimName, checkSubdomain);
        if (claim.resourceClaimTemplateName)
            checkRequiredName(c.r, templateNode, ip.field("resourceClaimTemplateName"),
                *claim.resourceClaimTemplateName, checkSubdomain);
        for (const auto& other : out)
            if (!claim.name.empty() && other.name == claim.name)
                c.r.duplicate(nameNode, ip.field("name"), claim.name);
        out.push_back(std::move(claim));
    });
    if (out.size() > kMaxResourceClaims)
        c.r.tooMany(n, p, out.size(), kMaxResourceClaims);
}

void readDisruptionMode(Ctx& c, uint32_t v, const Path& p, api::DisruptionMode& out)
{
    if (c.v1alpha2()) {
        // 1.36: an enum, Pod or PodGroup.
        std::string mode;
        if (c.r.isNull(v) || !c.r.getString(v, p, mode))
            return;
        if (mode == "Pod")
            out = api::DisruptionMode::Single;
        else if (mode == "PodGroup")
            out = api::DisruptionMode::All;
        else
            c.r.unsupported(v, p, mode, { "Pod", "PodGroup" });
        return;
    }
    // 1.37: a union, {single: {}} or {all: {}}.
    std::vector<std::string> set;
    c.r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t mv) {
        if (k != "single" && k != "all")
            return false;
        if (readEmptyMember(c.r, mv, p.field(k)))
            set.emplace_back(k), out = k == "single" ? api::DisruptionMode::Single : api::DisruptionMode::All;
        return true;
    });
    if (c.r.isNull(v))
        return;
    checkUnion(c.r, v, p, set, "single", "all");
}

void readPriorityFields(Ctx& c, std::string_view k, uint32_t v, const Path& fp, api::GroupPolicy& out)
{
    if (k == "priorityClassName") {
        if (c.r.getString(v, fp, out.priorityClassName) && !out.priorityClassName.empty())
            checkRequiredName(c.r, v, fp, out.priorityClassName, checkSubdomain);
        return;
    }
    int32_t prio = 0;
    if (!c.r.getInt32(v, fp, prio))
        return;
    out.priority = prio;
    if (prio > kHighestUserDefinablePriority)
        c.r.error(v, fp,
            "Invalid value: " + std::to_string(prio) + ": must be less than or equal to "
                + std::to_string(kHighestUserDefinablePriority));
}

void readPreemptionPolicy(Ctx& c, uint32_t v, const Path& fp, api::GroupPreemptionPolicy& out)
{
    std::string policy;
    if (!c.r.getString(v, fp, policy))
        return;
    if (policy == "PreemptLowerPriority")
        out = api::GroupPreemptionPolicy::PreemptLowerPriority;
    else if (policy == "Never")
        out = api::GroupPreemptionPolicy::Never;
    else
        c.r.unsupported(v, fp, policy, { "Never", "PreemptLowerPriority" });
}

/// One of the policy fields templates and groups share, with its version and gate; false for a
/// field this version does not have. `policyKey` is v1alpha1's "policy" or "schedulingPolicy".
bool readPolicyField(
    Ctx& c, std::string_view k, uint32_t v, const Path& fp, GroupKind kind, api::GroupPolicy& out)
{
    if (k == (c.v1alpha1() ? "policy" : "schedulingPolicy")) {
        readSchedulingPolicy(c, v, fp, kind, out.scheduling);
        return true;
    }
    if (c.v1alpha1())
        return false;
    if (k == "schedulingConstraints") {
        if (!c.gate("TopologyAwareWorkloadScheduling") && !c.r.isNull(v))
            return forbiddenByGate(c, v, fp, "TopologyAwareWorkloadScheduling"), true;
        readTopology(c, v, fp, out.topologyKeys);
    } else if (k == "resourceClaims" && kind == GroupKind::Leaf) {
        if (!c.gate("DRAWorkloadResourceClaims") && !c.storedClaims && !c.r.isNull(v))
            return forbiddenByGate(c, v, fp, "DRAWorkloadResourceClaims"), true;
        readResourceClaims(c, v, fp, out.resourceClaims);
    } else if (k == "disruptionMode" || k == "priorityClassName" || k == "priority") {
        // 1.36 gates these with WorkloadAwarePreemption; 1.37 merged that gate into GenericWorkload.
        if (c.v1alpha2() && !c.gate("WorkloadAwarePreemption") && !c.r.isNull(v))
            return forbiddenByGate(c, v, fp, "WorkloadAwarePreemption"), true;
        if (k == "disruptionMode")
            readDisruptionMode(c, v, fp, out.disruptionMode);
        else
            readPriorityFields(c, k, v, fp, out);
    } else if (k == "preemptionPolicy" && c.v137()) {
        if (!c.gate("PodGroupPreemptionPolicy") && !c.r.isNull(v))
            return forbiddenByGate(c, v, fp, "PodGroupPreemptionPolicy"), true;
        readPreemptionPolicy(c, v, fp, out.preemptionPolicy);
    } else {
        return false;
    }
    return true;
}

/// Names of every template in a Workload's tree: unique across the whole tree (KEP-6012).
using TemplateNames = std::set<std::string>;

/// A template without its policy: the union's "must specify one of", right after the name as
/// validatePodGroupTemplate orders them (a policy given as null is reported where it is read).
void checkPolicyGiven(Ctx& c, uint32_t item, const Path& ip, std::string_view key)
{
    if (!findKey(c.r.doc(), item, key))
        checkUnion(c.r, item, ip.field(key), {}, "basic", "gang");
}

/// A template's name, read and checked before its other fields, as validatePodGroupTemplate checks
/// it first; a composite's name is so taken before its children's (the tree is walked in
/// pre-order, and the later of two equal names is the duplicate).
std::string readTemplateName(Ctx& c, uint32_t item, const Path& ip, TemplateNames& seen)
{
    std::string name;
    const uint32_t nameNode = findKey(c.r.doc(), item, "name");
    if (nameNode)
        c.r.getString(nameNode, ip.field("name"), name);
    const uint32_t at = nameNode ? nameNode : item;
    checkRequiredName(c.r, at, ip.field("name"), name, checkDnsLabel);
    // validatePodGroupTemplate reports the item itself: field.Duplicate(fldPath, name).
    if (!name.empty() && !seen.insert(name).second)
        c.r.duplicate(at, ip, name);
    return name;
}

void readPodGroupTemplates(
    Ctx& c, uint32_t n, const Path& p, std::vector<api::PodGroupTemplate>& out, TemplateNames& names)
{
    c.r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::PodGroupTemplate t;
        t.name = readTemplateName(c, item, ip, names);
        checkPolicyGiven(c, item, ip, c.v1alpha1() ? "policy" : "schedulingPolicy");
        c.r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
            return k == "name" || readPolicyField(c, k, v, ip.field(k), GroupKind::Leaf, t.policy);
        });
        out.push_back(std::move(t));
    });
    if (out.size() > kMaxTemplates)
        c.r.tooMany(n, p, out.size(), kMaxTemplates);
}

void readCompositeTemplates(Ctx& c, uint32_t n, const Path& p, size_t depth,
    std::vector<api::CompositePodGroupTemplate>& out, TemplateNames& names);

void readCompositeTemplate(Ctx& c, uint32_t item, const Path& ip, size_t depth, TemplateNames& names,
    api::CompositePodGroupTemplate& t)
{
    t.name = readTemplateName(c, item, ip, names);
    checkPolicyGiven(c, item, ip, "schedulingPolicy");
    c.r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = ip.field(k);
        if (k == "name")
            return true;
        if (k == "podGroupTemplates")
            readPodGroupTemplates(c, v, fp, t.podGroupTemplates, names);
        else if (k == "compositePodGroupTemplates")
            readCompositeTemplates(c, v, fp, depth + 1, t.compositePodGroupTemplates, names);
        else
            return readPolicyField(c, k, v, fp, GroupKind::Composite, t.policy);
        return true;
    });
    if (t.podGroupTemplates.empty() && t.compositePodGroupTemplates.empty())
        c.r.invalid(
            item, ip, t.name, "must have at least one child PodGroupTemplate or CompositePodGroupTemplate");
    // WorkloadMaxTreeDepth counts the levels of a tree, its leaf PodGroups included; the words are
    // drasim's (the limit is enforced upstream, its message could not be confirmed).
    if (depth + 1 > kMaxTreeDepth && !t.podGroupTemplates.empty())
        c.r.invalid(item, ip, t.name,
            "a template tree must be at most " + std::to_string(kMaxTreeDepth) + " levels deep");
}

void readCompositeTemplates(Ctx& c, uint32_t n, const Path& p, size_t depth,
    std::vector<api::CompositePodGroupTemplate>& out, TemplateNames& names)
{
    c.r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::CompositePodGroupTemplate t;
        readCompositeTemplate(c, item, ip, depth, names, t);
        out.push_back(std::move(t));
    });
    if (out.size() > kMaxTemplates)
        c.r.tooMany(n, p, out.size(), kMaxTemplates);
}

/// controllerRef: validateControllerRef (apiGroup a DNS subdomain when set; kind and name
/// required path segment names).
void readControllerRef(Ctx& c, uint32_t n, const Path& p, api::TypedLocalObjectReference& out)
{
    uint32_t groupNode = n, kindNode = n, nameNode = n;
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "apiGroup")
            groupNode = v, c.r.getString(v, p.field(k), out.apiGroup);
        else if (k == "kind")
            kindNode = v, c.r.getString(v, p.field(k), out.kind);
        else if (k == "name")
            nameNode = v, c.r.getString(v, p.field(k), out.name);
        else
            return false;
        return true;
    });
    if (!out.apiGroup.empty())
        if (auto e = checkDnsSubdomain(out.apiGroup); !e.empty())
            c.r.invalid(groupNode, p.field("apiGroup"), out.apiGroup, e);
    auto pathSegment = [](std::string_view s) -> std::string {
        if (s == "." || s == "..")
            return "may not be '" + std::string(s) + "'";
        if (s.find('/') != std::string_view::npos)
            return "may not contain '/'";
        if (s.find('%') != std::string_view::npos)
            return "may not contain '%'";
        return {};
    };
    checkRequiredName(c.r, kindNode, p.field("kind"), out.kind, pathSegment);
    checkRequiredName(c.r, nameNode, p.field("name"), out.name, pathSegment);
}

void readWorkloadSpec(Ctx& c, uint32_t n, const Path& p, api::Workload& out)
{
    TemplateNames names;
    const std::string_view leafKey = c.v1alpha1() ? "podGroups" : "podGroupTemplates";
    uint32_t leafNode = n, compositeNode = 0;
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "controllerRef") {
            if (!c.r.isNull(v))
                readControllerRef(c, v, fp, out.controllerRef.emplace());
        } else if (k == leafKey) {
            leafNode = v;
            readPodGroupTemplates(c, v, fp, out.podGroupTemplates, names);
        } else if (k == "compositePodGroupTemplates" && c.v137()) {
            if (!c.gate("CompositePodGroup") && !c.r.isNull(v))
                return forbiddenByGate(c, v, fp, "CompositePodGroup"), true;
            compositeNode = v;
            readCompositeTemplates(c, v, fp, 1, out.compositePodGroupTemplates, names);
        } else {
            return false;
        }
        return true;
    });
    const bool leaves = !out.podGroupTemplates.empty(), composites = !out.compositePodGroupTemplates.empty();
    if (!c.v137() || !c.gate("CompositePodGroup")) {
        if (!leaves)
            c.r.error(leafNode, p.field(leafKey), "Required value: must have at least one item");
    } else if (leaves == composites) {
        // The union of 1.37 (validation_test.go "empty compositePodGroupTemplates", "both ...").
        const std::string members = "`podGroupTemplates`, `compositePodGroupTemplates`";
        if (!leaves)
            c.r.error(n, p, "Invalid value: \"\": must specify one of: " + members);
        else
            c.r.error(compositeNode ? compositeNode : n, p,
                "Invalid value: \"{podGroupTemplates, compositePodGroupTemplates}\": must specify exactly "
                "one of: "
                    + members);
    }
}

void readWorkloadRef(
    Ctx& c, uint32_t n, const Path& p, std::string_view templateKey, api::WorkloadTemplateRef& out)
{
    uint32_t wNode = n, tNode = n;
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "workloadName")
            wNode = v, c.r.getString(v, p.field(k), out.workloadName);
        else if (k == templateKey)
            tNode = v, c.r.getString(v, p.field(k), out.templateName);
        else
            return false;
        return true;
    });
    checkRequiredName(c.r, wNode, p.field("workloadName"), out.workloadName, checkSubdomain);
    checkRequiredName(c.r, tNode, p.field(templateKey), out.templateName, checkDnsLabel);
}

/// PodGroup.spec / CompositePodGroup.spec: the template reference of this version, the parent
/// composite, and the policy fields.
template <class Group> void readGroupSpec(Ctx& c, uint32_t n, const Path& p, GroupKind kind, Group& out)
{
    bool sawPolicy = false;
    uint32_t parentNode = n;
    c.r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "podGroupTemplateRef" && c.v1alpha2()) {
            // v1alpha2 nests the reference: podGroupTemplateRef.workload{workloadName, podGroupTemplateName}.
            c.r.fields(v, fp, [&](std::string_view rk, uint32_t, uint32_t rv) {
                if (rk != "workload")
                    return false;
                if (!c.r.isNull(rv))
                    readWorkloadRef(c, rv, fp.field(rk), "podGroupTemplateName", out.workloadRef.emplace());
                return true;
            });
        } else if (k == "workloadRef" && c.v137()) {
            if (!c.r.isNull(v))
                readWorkloadRef(c, v, fp, "templateName", out.workloadRef.emplace());
        } else if (k == "parentCompositePodGroupName" && c.v137()) {
            if (!c.gate("CompositePodGroup") && !c.r.isNull(v))
                return forbiddenByGate(c, v, fp, "CompositePodGroup"), true;
            parentNode = v;
            if (c.r.getString(v, fp, out.parentCompositePodGroupName)
                && !out.parentCompositePodGroupName.empty())
                checkRequiredName(c.r, v, fp, out.parentCompositePodGroupName, checkSubdomain);
        } else {
            sawPolicy = sawPolicy || k == "schedulingPolicy";
            return readPolicyField(c, k, v, fp, kind, out.policy);
        }
        return true;
    });
    if (!sawPolicy)
        checkUnion(c.r, n, p.field("schedulingPolicy"), {}, "basic", "gang");
    if (!out.parentCompositePodGroupName.empty() && !out.workloadRef)
        c.r.error(
            parentNode, p.field("workloadRef"), "Required value: when parentCompositePodGroupName is set");
    // Defaulting (1.37 SetDefaults_PodGroupSpec; 1.36 with WorkloadAwarePreemption): disruption
    // mode single ("Pod").
    if (out.policy.disruptionMode == api::DisruptionMode::Unset
        && (c.v137() || c.gate("WorkloadAwarePreemption")))
        out.policy.disruptionMode = api::DisruptionMode::Single;
}

void readConditions(Reader& r, uint32_t status, const Path& p, std::vector<api::GroupCondition>& out)
{
    if (r.nodeKind(status) != YamlNode::Kind::Map)
        return;
    const uint32_t cs = findKey(r.doc(), status, "conditions");
    if (!cs)
        return;
    r.items(cs, p.field("conditions"), [&](size_t, uint32_t item, const Path& ip) {
        if (r.nodeKind(item) != YamlNode::Kind::Map)
            return;
        api::GroupCondition cond;
        const std::pair<const char*, std::string*> fields[] = { { "type", &cond.type },
            { "status", &cond.status }, { "reason", &cond.reason }, { "message", &cond.message } };
        for (const auto& [key, into] : fields)
            if (uint32_t x = findKey(r.doc(), item, key))
                r.getString(x, ip.field(key), *into);
        out.push_back(std::move(cond));
    });
}

void readPriorityClassField(
    Reader& r, std::string_view k, uint32_t v, const Path& fp, api::PriorityClass& out)
{
    if (k == "value") {
        r.getInt32(v, fp, out.value);
    } else if (k == "globalDefault") {
        r.getBool(v, fp, out.globalDefault);
    } else if (k == "description") {
        r.getString(v, fp, out.description);
    } else if (k == "preemptionPolicy") {
        // ValidatePreemptionPolicy; absent it defaults to PreemptLowerPriority.
        if (r.getString(v, fp, out.preemptionPolicy) && out.preemptionPolicy != "Never"
            && out.preemptionPolicy != "PreemptLowerPriority")
            r.unsupported(v, fp, out.preemptionPolicy, { "Never", "PreemptLowerPriority" });
        if (out.preemptionPolicy.empty())
            out.preemptionPolicy = "PreemptLowerPriority";
    }
}

// The two classes the API server creates itself (SystemPriorityClasses in scheduling/v1
// helpers.go); a name with the "system-" prefix must be one of them, with its value.
std::string knownSystemClassError(const api::PriorityClass& pc)
{
    const std::pair<const char*, int32_t> known[]
        = { { "system-node-critical", 2000001000 }, { "system-cluster-critical", 2000000000 } };
    for (const auto& [name, value] : known)
        if (pc.meta.name == name) {
            if (pc.value != value)
                return "value of " + pc.meta.name + " PriorityClass must be " + std::to_string(value);
            if (pc.globalDefault)
                return "globalDefault of " + pc.meta.name + " PriorityClass must be false";
            return {};
        }
    return pc.meta.name + " is not a known system priority class";
}

} // namespace

void readJobScheduling(Reader& r, uint32_t n, const Path& p, api::JobSchedulingConfiguration& out)
{
    // batch/v1 JobSchedulingConfiguration (1.37): the v1alpha3 building blocks, where gang.minCount
    // is optional (the Job controller defaults it to parallelism) but positive when given.
    Ctx c { r, SchedulingVersion::V1alpha3 };
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "schedulingPolicy") {
            std::vector<std::string> set;
            r.fields(v, fp, [&](std::string_view pk, uint32_t, uint32_t pv) {
                const Path pp = fp.field(pk);
                if (pk == "basic") {
                    if (readEmptyMember(r, pv, pp))
                        set.emplace_back(pk);
                    return true;
                }
                if (pk != "gang")
                    return false;
                if (!r.isNull(pv))
                    set.emplace_back(pk), out.gang = true;
                r.fields(pv, pp, [&](std::string_view gk, uint32_t, uint32_t gv) {
                    int32_t count = 0;
                    if (gk != "minCount")
                        return false;
                    if (r.getInt32(gv, pp.field(gk), count)) {
                        out.minCount = count;
                        if (count < 1)
                            r.error(gv, pp.field(gk),
                                "Invalid value: " + std::to_string(count) + ": must be greater than zero");
                    }
                    return true;
                });
                return true;
            });
            if (!r.isNull(v))
                checkUnion(r, v, fp, set, "basic", "gang");
            return true;
        }
        if (k == "schedulingConstraints") {
            readTopology(c, v, fp, out.topologyKeys);
            return true;
        }
        if (k == "disruptionMode") {
            readDisruptionMode(c, v, fp, out.disruptionMode);
            return true;
        }
        if (k == "resourceClaims") {
            readResourceClaims(c, v, fp, out.resourceClaims);
            return true;
        }
        return false;
    });
}

bool readPriorityClass(Reader& r, uint32_t root, api::PriorityClass& out)
{
    const size_t before = r.errorCount();
    const Path p;
    uint32_t metaNode = root, valueNode = root;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "metadata")
            metaNode = v, readObjectMeta(r, v, fp, false, out.meta);
        else if (k == "value" || k == "globalDefault" || k == "description" || k == "preemptionPolicy") {
            if (k == "value")
                valueNode = v;
            readPriorityClassField(r, k, v, fp, out);
        } else if (k != "apiVersion" && k != "kind")
            return false;
        return true;
    });
    // ValidatePriorityClass (pkg/apis/scheduling/validation).
    if (out.meta.name.starts_with("system-")) {
        if (std::string e = knownSystemClassError(out); !e.empty())
            r.error(metaNode, p.field("metadata").field("name"),
                "Forbidden: priority class names with 'system-' prefix are reserved for system use only. "
                "error: "
                    + e);
    } else if (out.value > kHighestUserDefinablePriority) {
        r.error(valueNode, p.field("value"),
            "Forbidden: maximum allowed value of a user defined priority is "
                + std::to_string(kHighestUserDefinablePriority));
    }
    out.meta.pos = r.pos(root);
    return r.errorCount() == before;
}

bool readWorkload(Reader& r, uint32_t root, SchedulingVersion v, api::Workload& out)
{
    Ctx c { r, v };
    out.apiVersion = v;
    bool sawSpec = false;
    return readObject(
        r, root, true, out.meta,
        [&](uint32_t n, const Path& sp) {
            sawSpec = true;
            readWorkloadSpec(c, n, sp, out);
        },
        [](uint32_t, const Path&) {},
        [&] {
            if (!sawSpec)
                r.error(root, Path().field("spec").field(c.v1alpha1() ? "podGroups" : "podGroupTemplates"),
                    "Required value: must have at least one item");
        });
}

/// status.resourceClaimStatuses of a PodGroup: the claims generated for its template entries.
void readGroupClaimStatuses(
    Reader& r, uint32_t status, const Path& p, std::vector<api::PodGroupResourceClaimStatus>& out)
{
    const uint32_t rs
        = r.nodeKind(status) == YamlNode::Kind::Map ? findKey(r.doc(), status, "resourceClaimStatuses") : 0;
    if (!rs)
        return;
    r.items(rs, p.field("resourceClaimStatuses"), [&](size_t, uint32_t item, const Path& ip) {
        if (r.nodeKind(item) != YamlNode::Kind::Map)
            return;
        api::PodGroupResourceClaimStatus s;
        if (uint32_t x = findKey(r.doc(), item, "name"))
            r.getString(x, ip.field("name"), s.name);
        std::string claim;
        if (uint32_t x = findKey(r.doc(), item, "resourceClaimName");
            x && r.getString(x, ip.field("resourceClaimName"), claim))
            s.resourceClaimName = claim;
        out.push_back(std::move(s));
    });
}

bool readPodGroup(Reader& r, uint32_t root, SchedulingVersion v, api::PodGroup& out)
{
    Ctx c { r, v };
    out.apiVersion = v;
    if (uint32_t status = findKey(r.doc(), root, "status");
        status && r.nodeKind(status) == YamlNode::Kind::Map)
        if (uint32_t rs = findKey(r.doc(), status, "resourceClaimStatuses"))
            c.storedClaims = r.nodeKind(rs) == YamlNode::Kind::Sequence;
    bool sawSpec = false;
    return readObject(
        r, root, true, out.meta,
        [&](uint32_t n, const Path& sp) {
            sawSpec = true;
            readGroupSpec(c, n, sp, GroupKind::Leaf, out);
        },
        [&](uint32_t n, const Path& sp) {
            readConditions(r, n, sp, out.conditions);
            readGroupClaimStatuses(r, n, sp, out.resourceClaimStatuses);
        },
        [&] {
            if (!sawSpec)
                checkUnion(r, root, Path().field("spec").field("schedulingPolicy"), {}, "basic", "gang");
        });
}

bool readCompositePodGroup(Reader& r, uint32_t root, SchedulingVersion v, api::CompositePodGroup& out)
{
    Ctx c { r, v };
    out.apiVersion = v;
    bool sawSpec = false;
    return readObject(
        r, root, true, out.meta,
        [&](uint32_t n, const Path& sp) {
            sawSpec = true;
            readGroupSpec(c, n, sp, GroupKind::Composite, out);
        },
        [&](uint32_t n, const Path& sp) { readConditions(r, n, sp, out.conditions); },
        [&] {
            if (!sawSpec)
                checkUnion(r, root, Path().field("spec").field("schedulingPolicy"), {}, "basic", "gang");
            // A CompositePodGroup needs its workloadRef (v1alpha3 types.go: required).
            if (!out.workloadRef)
                r.required(root, Path().field("spec").field("workloadRef"));
        });
}

} // namespace drasim::yamlio
