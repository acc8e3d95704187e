// SPDX-License-Identifier: Apache-2.0
// Node, Pod and the pod factories (Job, Deployment, ReplicaSet, StatefulSet). Fields the simulator
// does not model are accepted (strict decoding knows them) and dropped; anything else is an
// unknown field.
#include <algorithm>
#include <array>

#include "core/api/pod_defaults.h"
#include "core/common/rfc3339.h"
#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

template <size_t N> bool oneOf(std::string_view key, const std::array<std::string_view, N>& known)
{
    return std::find(known.begin(), known.end(), key) != known.end();
}

// PodSpec fields of Kubernetes 1.36 that the simulator does not model and that do not change
// where or whether a pod is scheduled.
constexpr std::array<std::string_view, 26> kIgnoredPodSpecFields
    = { "activeDeadlineSeconds", "automountServiceAccountToken", "dnsConfig", "dnsPolicy",
          "enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork", "hostPID",
          "hostUsers", "hostname", "hostnameOverride", "imagePullSecrets", "os", "readinessGates",
          "restartPolicy", "runtimeClassName", "schedulingGates", "securityContext", "serviceAccount",
          "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace", "subdomain", "volumes" };

constexpr std::array<std::string_view, 21> kIgnoredContainerFields = { "args", "command", "env", "envFrom",
    "imagePullPolicy", "lifecycle", "livenessProbe", "ports", "readinessProbe", "resizePolicy",
    "restartPolicyRules", "securityContext", "startupProbe", "stdin", "stdinOnce", "terminationMessagePath",
    "terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir" };

void readContainer(Reader& r, uint32_t node, const Path& p, api::Container& out)
{
    uint32_t nameNode = node;
    r.fields(node, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "name") {
            nameNode = v;
            r.getString(v, fp, out.name);
        } else if (k == "image") {
            r.getString(v, fp, out.image);
        } else if (k == "restartPolicy") {
            std::string policy;
            if (!r.isNull(v) && r.getString(v, fp, policy))
                out.restartPolicy = policy;
        } else if (k == "resources") {
            r.fields(v, fp, [&](std::string_view rk, uint32_t, uint32_t rv) {
                const Path rp = fp.field(rk);
                if (rk == "requests")
                    readResourceList(r, rv, rp, out.resources.requests);
                else if (rk == "limits")
                    readResourceList(r, rv, rp, out.resources.limits);
                else if (rk == "claims") {
                    r.items(rv, rp, [&](size_t, uint32_t item, const Path& ip) {
                        std::string name, request;
                        r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
                            if (ck == "name")
                                r.getString(cv, ip.field(ck), name);
                            else if (ck == "request")
                                r.getString(cv, ip.field(ck), request);
                            else
                                return false;
                            return true;
                        });
                        if (name.empty())
                            r.required(item, ip.field("name"));
                        out.resources.claims.push_back(name);
                        out.resources.claimRequests.push_back(request);
                    });
                } else
                    return false;
                return true;
            });
            validateResourceRequirements(r, v, fp, out.resources);
        } else if (!oneOf(k, kIgnoredContainerFields)) {
            return false;
        }
        return true;
    });
    if (out.name.empty())
        r.required(nameNode, p.field("name"));
    else if (auto e = checkDnsLabel(out.name); !e.empty())
        r.invalid(nameNode, p.field("name"), out.name, e);
}

void readTolerations(Reader& r, uint32_t node, const Path& p, std::vector<api::Toleration>& out)
{
    r.items(node, p, [&](size_t, uint32_t item, const Path& ip) {
        api::Toleration t;
        const TolerationNodes at = readTolerationFields(r, item, ip, t);
        // The API server's checks, in its order: an empty key tolerates every taint only with
        // Exists, and tolerationSeconds belongs to NoExecute.
        if (t.key.empty() && t.op != "Exists")
            r.error(at.op, ip.field("operator"),
                "Invalid value: \"" + t.op
                    + "\": operator must be Exists when `key` is empty, which means \"match all values and "
                      "all keys\"");
        if (t.tolerationSeconds && t.effect != "NoExecute")
            r.error(at.effect, ip.field("effect"),
                "Invalid value: \"" + t.effect
                    + "\": effect must be 'NoExecute' when `tolerationSeconds` is set");
        if (!t.op.empty() && t.op != "Equal" && t.op != "Exists")
            r.unsupported(at.op, ip.field("operator"), t.op, { "Equal", "Exists" });
        if (t.op == "Exists" && !t.value.empty())
            r.error(item, ip.field("operator"),
                "Invalid value: \"" + t.value + "\": value must be empty when `operator` is 'Exists'");
        if (!t.effect.empty() && t.effect != "NoSchedule" && t.effect != "PreferNoSchedule"
            && t.effect != "NoExecute")
            r.unsupported(
                at.effect, ip.field("effect"), t.effect, { "NoExecute", "NoSchedule", "PreferNoSchedule" });
        out.push_back(std::move(t));
    });
}

/// spec.preemptionPolicy: Never or PreemptLowerPriority (ValidatePreemptionPolicy).
void readPodPreemptionPolicy(Reader& r, uint32_t v, const Path& p, api::PreemptionPolicy& out)
{
    std::string policy;
    if (!r.getString(v, p, policy))
        return;
    if (policy == "Never") {
        out = api::PreemptionPolicy::Never;
        return;
    }
    if (policy != "PreemptLowerPriority") {
        r.unsupported(v, p, policy, { "Never", "PreemptLowerPriority" });
        return;
    }
    out = api::PreemptionPolicy::PreemptLowerPriority;
}

/// spec.terminationGracePeriodSeconds: a non-negative int64 (ValidateNonnegativeField).
void readTerminationGracePeriod(Reader& r, uint32_t v, const Path& p, std::optional<int64_t>& out)
{
    int64_t seconds = 0;
    if (!r.getInt(v, p, seconds))
        return;
    if (seconds < 0)
        r.error(v, p, "Invalid value: " + std::to_string(seconds) + ": must be greater than or equal to 0");
    out = seconds;
}

void readAffinity(Reader& r, uint32_t node, const Path& p, api::PodSpec& spec)
{
    auto& out = spec.nodeAffinity;
    r.fields(node, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "podAffinity" || k == "podAntiAffinity") {
            readPodAffinityRules(
                r, v, p.field(k), k == "podAffinity" ? spec.podAffinity : spec.podAntiAffinity);
            return true;
        }
        if (k != "nodeAffinity")
            return false;
        api::NodeAffinity na;
        const Path np = p.field(k);
        r.fields(v, np, [&](std::string_view nk, uint32_t, uint32_t nv) {
            const Path fp = np.field(nk);
            if (nk == "requiredDuringSchedulingIgnoredDuringExecution") {
                api::NodeSelector sel;
                readNodeSelector(r, nv, fp, sel);
                na.required = std::move(sel);
            } else if (nk == "preferredDuringSchedulingIgnoredDuringExecution") {
                r.items(nv, fp, [&](size_t, uint32_t item, const Path& ip) {
                    api::PreferredSchedulingTerm t;
                    r.fields(item, ip, [&](std::string_view tk, uint32_t, uint32_t tv) {
                        if (tk == "weight") {
                            r.getInt32(tv, ip.field(tk), t.weight);
                            if (t.weight < 1 || t.weight > 100)
                                r.error(tv, ip.field(tk),
                                    "Invalid value: " + std::to_string(t.weight)
                                        + ": must be in the range 1-100");
                        } else if (tk == "preference")
                            readNodeSelectorTerm(r, tv, ip.field(tk), t.preference);
                        else
                            return false;
                        return true;
                    });
                    na.preferred.push_back(std::move(t));
                });
            } else {
                return false;
            }
            return true;
        });
        out = std::move(na);
        return true;
    });
}

// The warning for a field the API server clears because its feature gate is off
// (dropDisabledWorkloadRef in pkg/api/pod/util.go; schedulingGroup is dropped the same way).
void droppedByGate(Reader& r, uint32_t v, const Path& p, std::string_view gate)
{
    r.warning(v, p,
        "dropped: feature gate " + std::string(gate) + " is disabled, so the API server clears this field");
}

/// spec.workloadRef (Kubernetes 1.35 only; 1.36 removed the field): {name, podGroup,
/// podGroupReplicaKey}, validated as validateWorkloadReference does.
void readWorkloadReference(
    Reader& r, uint32_t v, const Path& p, std::optional<api::PodWorkloadReference>& out)
{
    api::PodWorkloadReference ref;
    uint32_t nameNode = v, groupNode = v, keyNode = v;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k == "name")
            nameNode = fv, r.getString(fv, p.field(k), ref.name);
        else if (k == "podGroup")
            groupNode = fv, r.getString(fv, p.field(k), ref.podGroup);
        else if (k == "podGroupReplicaKey")
            keyNode = fv, r.getString(fv, p.field(k), ref.podGroupReplicaKey);
        else
            return false;
        return true;
    });
    if (r.isNull(v))
        return;
    if (!r.gates().enabled("GenericWorkload"))
        return droppedByGate(r, v, p, "GenericWorkload");
    auto check = [&](uint32_t n, std::string_view field, const std::string& value, bool required,
                     std::string (*rule)(std::string_view)) {
        if (value.empty()) {
            if (required)
                r.required(n, p.field(field));
        } else if (auto e = rule(value); !e.empty()) {
            r.invalid(n, p.field(field), value, e);
        }
    };
    check(nameNode, "name", ref.name, true, [](std::string_view s) { return checkDnsSubdomain(s); });
    check(groupNode, "podGroup", ref.podGroup, true, checkDnsLabel);
    check(keyNode, "podGroupReplicaKey", ref.podGroupReplicaKey, false, checkDnsLabel);
    out = std::move(ref);
}

/// spec.schedulingGroup (Kubernetes 1.36+): {podGroupName}, a DNS subdomain naming a PodGroup that
/// may not exist yet.
void readSchedulingGroup(Reader& r, uint32_t v, const Path& p, std::optional<std::string>& out)
{
    // Decoding (types, unknown fields) comes before the strategy clears a disabled field.
    std::string name;
    uint32_t nameNode = v;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k != "podGroupName")
            return false;
        nameNode = fv;
        r.getString(fv, p.field(k), name);
        return true;
    });
    if (r.isNull(v))
        return;
    if (!r.gates().enabled("GenericWorkload"))
        return droppedByGate(r, v, p, "GenericWorkload");
    if (name.empty())
        r.required(nameNode, p.field("podGroupName"));
    else if (auto e = checkDnsSubdomain(name); !e.empty())
        r.invalid(nameNode, p.field("podGroupName"), name, e);
    out = std::move(name);
}

void readPodSpec(Reader& r, uint32_t node, const Path& p, api::PodSpec& out)
{
    bool sawContainers = false;
    uint32_t podLevelNode = node;
    r.fields(node, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "containers" || k == "initContainers") {
            sawContainers = sawContainers || k == "containers";
            auto& list = k == "containers" ? out.containers : out.initContainers;
            r.items(v, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::Container c;
                readContainer(r, item, ip, c);
                list.push_back(std::move(c));
            });
        } else if (k == "nodeName") {
            r.getString(v, fp, out.nodeName);
        } else if (k == "schedulerName") {
            r.getString(v, fp, out.schedulerName);
        } else if (k == "nodeSelector") {
            r.getStringMap(v, fp, out.nodeSelector);
        } else if (k == "affinity") {
            readAffinity(r, v, fp, out);
        } else if (k == "topologySpreadConstraints") {
            readTopologySpreadConstraints(r, v, fp, out.topologySpreadConstraints);
        } else if (k == "tolerations") {
            readTolerations(r, v, fp, out.tolerations);
        } else if (k == "resourceClaims") {
            r.items(v, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::PodResourceClaim c;
                r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
                    std::string s;
                    if (ck == "name")
                        r.getString(cv, ip.field(ck), c.name);
                    else if (ck == "resourceClaimName") {
                        if (r.getString(cv, ip.field(ck), s))
                            c.resourceClaimName = s;
                    } else if (ck == "resourceClaimTemplateName") {
                        if (r.getString(cv, ip.field(ck), s))
                            c.resourceClaimTemplateName = s;
                    } else
                        return false;
                    return true;
                });
                if (c.name.empty())
                    r.required(item, ip.field("name"));
                else if (auto e = checkDnsLabel(c.name); !e.empty())
                    r.invalid(item, ip.field("name"), c.name, e);
                if (c.resourceClaimName.has_value() == c.resourceClaimTemplateName.has_value())
                    r.error(item, ip,
                        "Invalid value: must specify one of: `resourceClaimName`, "
                        "`resourceClaimTemplateName`");
                for (const auto& other : out.resourceClaims)
                    if (other.name == c.name && !c.name.empty())
                        r.duplicate(item, ip.field("name"), c.name);
                out.resourceClaims.push_back(std::move(c));
            });
        } else if (k == "priority") {
            int32_t prio = 0;
            if (r.getInt32(v, fp, prio))
                out.priority = prio;
        } else if (k == "priorityClassName") {
            r.getString(v, fp, out.priorityClassName);
        } else if (k == "preemptionPolicy") {
            readPodPreemptionPolicy(r, v, fp, out.preemptionPolicy);
        } else if (k == "terminationGracePeriodSeconds") {
            readTerminationGracePeriod(r, v, fp, out.terminationGracePeriodSeconds);
        } else if (k == "overhead") {
            readResourceList(r, v, fp, out.overhead);
        } else if (k == "resources") {
            podLevelNode = v;
            readPodLevelResources(r, v, fp, out);
        } else if (k == "workloadRef" && r.gates().version() == api::KubernetesVersion::V1_35) {
            readWorkloadReference(r, v, fp, out.workloadRef);
        } else if (k == "schedulingGroup" && r.gates().version() != api::KubernetesVersion::V1_35) {
            readSchedulingGroup(r, v, fp, out.schedulingGroup);
        } else if (!oneOf(k, kIgnoredPodSpecFields)) {
            return false;
        }
        return true;
    });
    if (!sawContainers || out.containers.empty())
        r.required(node, p.field("containers"));
    checkPodLevelRequests(r, podLevelNode, p, out);
    // Containers may only reference claims the pod declares.
    for (size_t i = 0; i < out.containers.size(); ++i)
        for (const auto& claim : out.containers[i].resources.claims)
            if (!claim.empty()
                && std::none_of(out.resourceClaims.begin(), out.resourceClaims.end(),
                    [&](const api::PodResourceClaim& c) { return c.name == claim; }))
                r.error(node, p.field("containers").at(i).field("resources").field("claims"),
                    "Not found: \"" + claim + "\": must be one of the pod's resourceClaims");
}

/// status.extendedResourceClaimStatus of a pod bound before the dump: names the claim the
/// scheduler created for its extended resources (so finishing the pod releases it).
void readExtendedResourceClaimStatus(Reader& r, uint32_t node, const Path& p, api::Pod& out)
{
    api::PodExtendedResourceClaimStatus st;
    if (uint32_t x = findKey(r.doc(), node, "resourceClaimName"))
        r.getString(x, p.field("resourceClaimName"), st.resourceClaimName);
    if (uint32_t ms = findKey(r.doc(), node, "requestMappings"))
        r.items(ms, p.field("requestMappings"), [&](size_t, uint32_t item, const Path& ip) {
            if (r.nodeKind(item) != YamlNode::Kind::Map)
                return;
            api::ContainerExtendedResourceRequest m;
            if (uint32_t x = findKey(r.doc(), item, "containerName"))
                r.getString(x, ip.field("containerName"), m.containerName);
            if (uint32_t x = findKey(r.doc(), item, "resourceName"))
                r.getString(x, ip.field("resourceName"), m.resourceName);
            if (uint32_t x = findKey(r.doc(), item, "requestName"))
                r.getString(x, ip.field("requestName"), m.requestName);
            st.requestMappings.push_back(std::move(m));
        });
    out.extendedResourceClaimStatus = std::move(st);
}

/// status.startTime: an RFC 3339 time (metav1.Time), kept as written and in seconds.
void readStartTime(Reader& r, uint32_t x, const Path& p, std::optional<api::PodStartTime>& out)
{
    api::PodStartTime t;
    if (!r.getString(x, p, t.text))
        return;
    int32_t nanos = 0;
    std::string error;
    if (!parseRfc3339(t.text, t.seconds, nanos, &error)) {
        r.error(x, p, "Invalid value: \"" + t.text + "\": " + error);
        return;
    }
    out = std::move(t);
}

/// The status fields a dump carries that matter to scheduling; the rest is tolerated wholesale.
void readPodStatus(Reader& r, uint32_t v, const Path& fp, api::Pod& out)
{
    if (r.nodeKind(v) != YamlNode::Kind::Map)
        return;
    if (uint32_t ph = findKey(r.doc(), v, "phase"))
        r.getString(ph, fp.field("phase"), out.phase);
    if (uint32_t cs = findKey(r.doc(), v, "conditions"))
        r.items(cs, fp.field("conditions"), [&](size_t, uint32_t item, const Path& ip) {
            api::PodCondition c;
            if (r.nodeKind(item) != YamlNode::Kind::Map)
                return;
            if (uint32_t x = findKey(r.doc(), item, "type"))
                r.getString(x, ip.field("type"), c.type);
            if (uint32_t x = findKey(r.doc(), item, "status"))
                r.getString(x, ip.field("status"), c.status);
            if (uint32_t x = findKey(r.doc(), item, "reason"))
                r.getString(x, ip.field("reason"), c.reason);
            if (uint32_t x = findKey(r.doc(), item, "message"))
                r.getString(x, ip.field("message"), c.message);
            out.conditions.push_back(std::move(c));
        });
    if (uint32_t rs = findKey(r.doc(), v, "resourceClaimStatuses"))
        r.items(rs, fp.field("resourceClaimStatuses"), [&](size_t, uint32_t item, const Path& ip) {
            api::PodResourceClaimStatus s;
            if (r.nodeKind(item) != YamlNode::Kind::Map)
                return;
            if (uint32_t x = findKey(r.doc(), item, "name"))
                r.getString(x, ip.field("name"), s.name);
            std::string claim;
            if (uint32_t x = findKey(r.doc(), item, "resourceClaimName"); x && r.getString(x, ip, claim))
                s.resourceClaimName = claim;
            out.resourceClaimStatuses.push_back(std::move(s));
        });
    if (uint32_t es = findKey(r.doc(), v, "extendedResourceClaimStatus");
        es && r.nodeKind(es) == YamlNode::Kind::Map)
        readExtendedResourceClaimStatus(r, es, fp.field("extendedResourceClaimStatus"), out);
    if (uint32_t x = findKey(r.doc(), v, "nodeAllocatableResourceClaimStatuses"))
        readNodeAllocatableClaimStatuses(
            r, x, fp.field("nodeAllocatableResourceClaimStatuses"), out.nodeAllocatableResourceClaimStatuses);
    if (uint32_t x = findKey(r.doc(), v, "nominatedNodeName"))
        r.getString(x, fp.field("nominatedNodeName"), out.nominatedNodeName);
    if (uint32_t x = findKey(r.doc(), v, "startTime"))
        readStartTime(r, x, fp.field("startTime"), out.startTime);
}

} // namespace

bool readNode(Reader& r, uint32_t root, api::Node& out)
{
    const size_t before = r.errorCount();
    const Path p;
    bool haveAllocatable = false;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "apiVersion" || k == "kind")
            return true;
        if (k == "metadata") {
            readObjectMeta(r, v, fp, false, out.meta);
        } else if (k == "spec") {
            r.fields(v, fp, [&](std::string_view sk, uint32_t, uint32_t sv) {
                const Path sp = fp.field(sk);
                if (sk == "unschedulable")
                    r.getBool(sv, sp, out.unschedulable);
                else if (sk == "taints") {
                    r.items(sv, sp, [&](size_t, uint32_t item, const Path& ip) {
                        api::Taint t;
                        uint32_t effectNode = item;
                        r.fields(item, ip, [&](std::string_view tk, uint32_t, uint32_t tv) {
                            if (tk == "key")
                                r.getString(tv, ip.field(tk), t.key);
                            else if (tk == "value")
                                r.getString(tv, ip.field(tk), t.value);
                            else if (tk == "effect")
                                effectNode = tv, r.getString(tv, ip.field(tk), t.effect);
                            else if (tk == "timeAdded")
                                r.getString(tv, ip.field(tk), t.timeAdded);
                            else
                                return false;
                            return true;
                        });
                        if (t.key.empty())
                            r.required(item, ip.field("key"));
                        if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule"
                            && t.effect != "NoExecute") {
                            if (t.effect.empty())
                                r.required(effectNode, ip.field("effect"));
                            else
                                r.unsupported(effectNode, ip.field("effect"), t.effect,
                                    { "NoExecute", "NoSchedule", "PreferNoSchedule" });
                        }
                        out.taints.push_back(std::move(t));
                    });
                } else if (sk != "podCIDR" && sk != "podCIDRs" && sk != "providerID" && sk != "externalID"
                    && sk != "configSource")
                    return false;
                return true;
            });
        } else if (k == "status") {
            // Status is tolerated wholesale; only capacity/allocatable matter.
            if (r.nodeKind(v) == YamlNode::Kind::Map) {
                if (uint32_t c = findKey(r.doc(), v, "capacity"))
                    readResourceList(r, c, fp.field("capacity"), out.capacity);
                if (uint32_t a = findKey(r.doc(), v, "allocatable")) {
                    haveAllocatable = !r.isNull(a);
                    readResourceList(r, a, fp.field("allocatable"), out.allocatable);
                }
                if (uint32_t f = findKey(r.doc(), v, "declaredFeatures"))
                    r.getStringList(f, fp.field("declaredFeatures"), out.declaredFeatures);
            }
        } else {
            return false;
        }
        return true;
    });
    if (!haveAllocatable)
        out.allocatable = out.capacity;
    out.meta.pos = r.pos(root);
    return r.errorCount() == before;
}

bool readNamespace(Reader& r, uint32_t root, api::Namespace& out)
{
    const size_t before = r.errorCount();
    const Path p;
    uint32_t metaNode = root;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "metadata") {
            metaNode = v;
            readObjectMeta(r, v, fp, false, out.meta);
        } else if (k == "spec") {
            r.fields(v, fp, [&](std::string_view sk, uint32_t, uint32_t) { return sk == "finalizers"; });
        } else if (k != "apiVersion" && k != "kind" && k != "status") {
            // Status (phase, conditions) is tolerated wholesale like every status.
            return false;
        }
        return true;
    });
    // ValidateNamespaceName: a namespace name is a DNS label, stricter than other object names.
    if (!out.meta.name.empty())
        if (auto e = checkDnsLabel(out.meta.name); !e.empty()) {
            const uint32_t nameNode
                = r.nodeKind(metaNode) == YamlNode::Kind::Map ? findKey(r.doc(), metaNode, "name") : 0;
            r.invalid(nameNode ? nameNode : root, p.field("metadata").field("name"), out.meta.name, e);
        }
    out.meta.pos = r.pos(root);
    return r.errorCount() == before;
}

bool readPod(Reader& r, uint32_t root, api::Pod& out)
{
    const size_t before = r.errorCount();
    const Path p;
    bool sawSpec = false;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "apiVersion" || k == "kind")
            return true;
        if (k == "metadata")
            readObjectMeta(r, v, fp, true, out.meta);
        else if (k == "spec") {
            sawSpec = true;
            readPodSpec(r, v, fp, out.spec);
        } else if (k == "status") {
            readPodStatus(r, v, fp, out);
        } else
            return false;
        return true;
    });
    if (!sawSpec)
        r.required(root, p.field("spec"));
    // What the API server stores, hence what the scheduler and the output see (pod_defaults.h).
    api::defaultRequestsFromLimits(out.spec);
    out.meta.pos = r.pos(root);
    return r.errorCount() == before;
}

// The Job fields the simulated Job controller does not model. They are accepted (the API server
// would), and a value that changes what the real controller does is named with a warning, so a
// result is never silently different from the cluster's. Fields whose effect the simulation
// cannot show (ttlSecondsAfterFinished, manualSelector) pass quietly. Returns false for a field
// the Job spec does not have.
bool acceptJobField(Reader& r, std::string_view key, uint32_t v, const Path& p)
{
    if (key == "ttlSecondsAfterFinished" || key == "manualSelector")
        return true;
    const bool null = r.isNull(v);
    const bool scalar = r.nodeKind(v) == YamlNode::Kind::Scalar;
    if (key == "suspend") {
        if (!null && scalar && r.text(v) == "true")
            r.warning(v, p, "true is not simulated: the Job starts when it arrives");
        return true;
    }
    if (key == "managedBy") {
        if (!null && scalar && r.text(v) != "kubernetes.io/job-controller")
            r.warning(v, p, "not simulated: the Job is run as the built-in Job controller runs it");
        return true;
    }
    const char* why = nullptr;
    if (key == "backoffLimitPerIndex" || key == "maxFailedIndexes")
        why = "failures count against backoffLimit for the whole Job";
    else if (key == "activeDeadlineSeconds")
        why = "the Job is not failed when its deadline passes";
    else if (key == "successPolicy")
        why = "the Job succeeds when completions pods have succeeded";
    else
        return false;
    if (!null)
        r.warning(v, p, std::string("not simulated: ") + why);
    return true;
}

// spec.completionMode: NonIndexed or Indexed, as ValidateJobSpec allows. An Indexed Job is kept as
// such (Kubernetes 1.36's Job controller gangs it), but its pods get no completion index.
void readCompletionMode(Reader& r, uint32_t v, const Path& p, api::PodController& out)
{
    std::string mode;
    if (r.isNull(v) || !r.getString(v, p, mode))
        return;
    if (mode == "Indexed") {
        out.indexed = true;
        r.warning(
            v, p, "Indexed is not simulated: pods get no completion index and are counted as NonIndexed");
    } else if (mode != "NonIndexed")
        r.unsupported(v, p, mode, { "NonIndexed", "Indexed" });
}

// The Indexed rules of ValidateJobSpec (pkg/apis/batch/validation/validation.go): completions
// must be given, parallelism is at most 100000.
void checkIndexedJob(
    Reader& r, uint32_t spec, const Path& p, bool sawCompletions, const api::PodController& out)
{
    if (!out.indexed)
        return;
    if (!sawCompletions)
        r.error(spec, p.field("completions"), "Required value: when completion mode is Indexed");
    if (out.parallelism > 100000)
        r.error(spec, p.field("parallelism"),
            "Invalid value: " + std::to_string(out.parallelism)
                + ": must be less than or equal to 100000 when completion mode is Indexed");
}

bool readPodController(Reader& r, uint32_t root, api::PodController::Kind kind, api::PodController& out)
{
    using K = api::PodController::Kind;
    const size_t before = r.errorCount();
    out.kind = kind;
    const Path p;
    bool sawTemplate = false;
    bool sawCompletions = false, sawParallelism = false;
    uint32_t specNode = root, replacementNode = root;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "apiVersion" || k == "kind" || k == "status")
            return true;
        if (k == "metadata") {
            readObjectMeta(r, v, fp, true, out.meta);
            return true;
        }
        if (k != "spec")
            return false;
        specNode = v;
        r.fields(v, fp, [&](std::string_view sk, uint32_t, uint32_t sv) {
            const Path sp = fp.field(sk);
            auto nonNegative = [&](int32_t& field) {
                if (r.getInt32(sv, sp, field) && field < 0)
                    r.error(sv, sp,
                        "Invalid value: " + std::to_string(field) + ": must be greater than or equal to 0");
            };
            if (sk == "template") {
                sawTemplate = true;
                r.fields(sv, sp, [&](std::string_view tk, uint32_t, uint32_t tv) {
                    if (tk == "metadata") {
                        // Template metadata has no required name.
                        api::ObjectMeta& m = out.podTemplate.meta;
                        r.fields(tv, sp.field(tk), [&](std::string_view mk, uint32_t, uint32_t mv) {
                            if (mk == "labels")
                                r.getStringMap(mv, sp.field(tk).field(mk), m.labels);
                            else if (mk == "annotations")
                                r.getStringMap(mv, sp.field(tk).field(mk), m.annotations);
                            else if (mk == "name")
                                r.getString(mv, sp.field(tk).field(mk), m.name);
                            else if (mk == "namespace")
                                r.getString(mv, sp.field(tk).field(mk), m.namespace_);
                            else if (mk != "creationTimestamp" && mk != "generateName" && mk != "finalizers")
                                return false;
                            return true;
                        });
                    } else if (tk == "spec")
                        readPodSpec(r, tv, sp.field(tk), out.podTemplate.spec);
                    else
                        return false;
                    return true;
                });
                return true;
            }
            if (sk == "selector") {
                readLabelSelector(r, sv, sp, out.selector);
                return true;
            }
            if (kind == K::Job) {
                if (sk == "scheduling" && r.gates().version() == api::KubernetesVersion::V1_37) {
                    // Job strategy clears spec.scheduling while WorkloadWithJob is off.
                    if (!r.gates().enabled("WorkloadWithJob")) {
                        if (!r.isNull(sv))
                            droppedByGate(r, sv, sp, "WorkloadWithJob");
                    } else if (!r.isNull(sv)) {
                        readJobScheduling(r, sv, sp, out.scheduling.emplace());
                    }
                } else if (sk == "parallelism")
                    sawParallelism = true, nonNegative(out.parallelism);
                else if (sk == "completions")
                    sawCompletions = true, nonNegative(out.completions);
                else if (sk == "backoffLimit")
                    nonNegative(out.backoffLimit);
                else if (sk == "completionMode")
                    readCompletionMode(r, sv, sp, out);
                else if (sk == "podFailurePolicy") {
                    if (!r.isNull(sv))
                        readPodFailurePolicy(r, sv, sp, out.podFailurePolicy.emplace());
                } else if (sk == "podReplacementPolicy") {
                    if (!r.isNull(sv) && r.getString(sv, sp, out.podReplacementPolicy))
                        replacementNode = sv;
                } else
                    return acceptJobField(r, sk, sv, sp);
                return true;
            }
            if (sk == "replicas") {
                nonNegative(out.replicas);
                return true;
            }
            if (sk == "minReadySeconds")
                return true;
            if (kind == K::Deployment)
                return sk == "paused" || sk == "progressDeadlineSeconds" || sk == "revisionHistoryLimit"
                    || sk == "strategy";
            if (kind == K::StatefulSet && sk == "podManagementPolicy") {
                std::string policy;
                if (!r.isNull(sv) && r.getString(sv, sp, policy)) {
                    if (policy == "Parallel")
                        out.orderedReady = false;
                    else if (policy != "OrderedReady")
                        r.unsupported(sv, sp, policy, { "OrderedReady", "Parallel" });
                }
                return true;
            }
            if (kind == K::StatefulSet)
                return sk == "ordinals" || sk == "persistentVolumeClaimRetentionPolicy"
                    || sk == "podManagementPolicy" || sk == "revisionHistoryLimit" || sk == "serviceName"
                    || sk == "updateStrategy" || sk == "volumeClaimTemplates";
            return false;
        });
        return true;
    });
    // A Job with parallelism but no completions is a work queue: completions follow parallelism.
    if (kind == K::Job && sawParallelism && !sawCompletions)
        out.completions = out.parallelism;
    checkIndexedJob(r, specNode, p.field("spec"), sawCompletions, out);
    checkPodReplacementPolicy(r, replacementNode, p.field("spec").field("podReplacementPolicy"), out);
    if (!sawTemplate)
        r.required(root, p.field("spec").field("template"));
    out.podTemplate.meta.namespace_ = out.meta.namespace_;
    out.meta.pos = r.pos(root);
    out.podTemplate.meta.pos = out.meta.pos;
    return r.errorCount() == before;
}

} // namespace drasim::yamlio
