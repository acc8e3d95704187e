// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: one reader per kind. Each takes the object's root map inside a lean
// document, fills the v1 model and validates it like the API server (strict field validation
// plus the DRA validation rules of dra-semantics.md §2.5/§3.14). Return false when the object has
// errors (it is then not added to the ObjectSet).

#include <string>

#include "core/api/core_v1.h"
#include "core/api/policy_v1.h"
#include "core/api/resource_v1.h"
#include "core/api/scheduling_v1.h"
#include "core/yamlio/manifest_reader.h"

namespace drasim::yamlio {

/// resource.k8s.io versions we read; all are converted to the v1 model.
enum class ResourceVersion { V1, V1beta2, V1beta1, V1alpha3 };

bool readNode(Reader& r, uint32_t root, api::Node& out);
bool readNamespace(Reader& r, uint32_t root, api::Namespace& out);
/// core/v1 Service: its selector (read_service.cpp).
bool readService(Reader& r, uint32_t root, api::Service& out);
bool readPod(Reader& r, uint32_t root, api::Pod& out);
bool readPodController(Reader& r, uint32_t root, api::PodController::Kind kind, api::PodController& out);
bool readResourceSlice(Reader& r, uint32_t root, ResourceVersion v, api::ResourceSlice& out);
bool readDeviceClass(Reader& r, uint32_t root, ResourceVersion v, api::DeviceClass& out);
bool readResourceClaim(Reader& r, uint32_t root, ResourceVersion v, api::ResourceClaim& out);
bool readResourceClaimTemplate(Reader& r, uint32_t root, ResourceVersion v, api::ResourceClaimTemplate& out);
/// resource.k8s.io/v1alpha3 and v1beta2 DeviceTaintRule (same fields in both).
bool readDeviceTaintRule(Reader& r, uint32_t root, api::DeviceTaintRule& out);

/// scheduling.k8s.io (read_scheduling.cpp): every served version into one form, validated as the
/// API server does at the reader's Kubernetes version and feature gates.
bool readWorkload(Reader& r, uint32_t root, api::SchedulingVersion v, api::Workload& out);
bool readPodGroup(Reader& r, uint32_t root, api::SchedulingVersion v, api::PodGroup& out);
bool readCompositePodGroup(Reader& r, uint32_t root, api::SchedulingVersion v, api::CompositePodGroup& out);
/// batch/v1 Job spec.scheduling (Kubernetes 1.37, WorkloadWithJob gate).
void readJobScheduling(Reader& r, uint32_t n, const Path& p, api::JobSchedulingConfiguration& out);
/// Job spec.podFailurePolicy, validated as the API server does (read_job_policy.cpp).
void readPodFailurePolicy(Reader& r, uint32_t n, const Path& p, api::PodFailurePolicy& out);
/// Job spec.podReplacementPolicy against the values the Job allows (Failed only with a
/// podFailurePolicy); n is where it was given.
void checkPodReplacementPolicy(Reader& r, uint32_t n, const Path& p, const api::PodController& job);
/// scheduling.k8s.io/v1 PriorityClass.
bool readPriorityClass(Reader& r, uint32_t root, api::PriorityClass& out);

/// policy/v1 PodDisruptionBudget (read_policy.cpp).
bool readPodDisruptionBudget(Reader& r, uint32_t root, api::PodDisruptionBudget& out);

/// Shared helpers (object_meta.cpp).
/// What an object's name must be: a DNS subdomain (most kinds) or a DNS-1035 label (Service,
/// ValidateServiceName).
enum class NameRule { DnsSubdomain, Dns1035Label };
/// A map of labels, each key and value checked as ValidateLabels does (metadata.labels, a
/// Service's selector).
void readLabels(Reader& r, uint32_t node, const Path& p, api::Labels& out);
void readObjectMeta(Reader& r, uint32_t node, const Path& p, bool namespaced, api::ObjectMeta& out,
    NameRule nameRule = NameRule::DnsSubdomain);
void readNodeSelector(Reader& r, uint32_t node, const Path& p, api::NodeSelector& out);
void readNodeSelectorTerm(Reader& r, uint32_t node, const Path& p, api::NodeSelectorTerm& out);
/// metav1.LabelSelector (read_label_selector.cpp); null leaves `out` absent.
void readLabelSelector(Reader& r, uint32_t v, const Path& p, std::optional<api::LabelSelector>& out);
/// spec.affinity.podAffinity / podAntiAffinity and spec.topologySpreadConstraints
/// (read_pod_affinity.cpp), validated as ValidateAffinity and ValidateTopologySpreadConstraints do.
void readPodAffinityRules(Reader& r, uint32_t v, const Path& p, std::optional<api::PodAffinityRules>& out);
void readTopologySpreadConstraints(
    Reader& r, uint32_t v, const Path& p, std::vector<api::TopologySpreadConstraint>& out);
/// Looks up metadata.name / metadata.namespace before full parsing, so that every error of the
/// object can name it.
std::string peekObjectName(const Reader& r, uint32_t root, bool namespaced);
/// The API server's ValidateResourceRequirements (resource_requirements.cpp): `node` is the
/// `resources` map of a container (or the pod overhead read as limits), `res` what was read from it.
/// A ResourceList (requests, limits, overhead): quantities, none negative.
void readResourceList(Reader& r, uint32_t node, const Path& p, api::ResourceList& out);
/// spec.resources (read_pod_resources.cpp): pod-level requests and limits, cleared while
/// PodLevelResources is off.
void readPodLevelResources(Reader& r, uint32_t v, const Path& p, api::PodSpec& out);
/// status.nodeAllocatableResourceClaimStatuses of a bound pod (DRANodeAllocatableResources): what
/// its claims add to its requests on its node.
void readNodeAllocatableClaimStatuses(
    Reader& r, uint32_t n, const Path& p, std::vector<api::NodeAllocatableResourceClaimStatus>& out);
/// A pod-level request must cover its containers' aggregate request (validatePodResourceConsistency);
/// `node` is the spec.resources map.
void checkPodLevelRequests(Reader& r, uint32_t node, const Path& p, const api::PodSpec& spec);

void validateResourceRequirements(
    Reader& r, uint32_t node, const Path& p, const api::ResourceRequirements& res);
/// v1helper.IsExtendedResourceName (resource_requirements.cpp): a domain outside kubernetes.io and a
/// name that stays a qualified name behind quota's "requests." prefix.
bool isExtendedResourceName(std::string_view name);
/// Where the fields of one toleration were written (the item itself when absent), for messages.
struct TolerationNodes
{
    uint32_t key, op, effect, value;
};

/// Reads the fields core/v1 Toleration and resource/v1 DeviceToleration share (same names and
/// types: key, operator, value, effect, tolerationSeconds). What is valid differs between the two
/// APIs, so validation stays with the callers.
template <class T> TolerationNodes readTolerationFields(Reader& r, uint32_t item, const Path& ip, T& t)
{
    TolerationNodes at { item, item, item, item };
    r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "key")
            at.key = v, r.getString(v, ip.field(k), t.key);
        else if (k == "operator")
            at.op = v, r.getString(v, ip.field(k), t.op);
        else if (k == "value")
            at.value = v, r.getString(v, ip.field(k), t.value);
        else if (k == "effect")
            at.effect = v, r.getString(v, ip.field(k), t.effect);
        else if (k == "tolerationSeconds") {
            int64_t s = 0;
            if (r.getInt(v, ip.field(k), s))
                t.tolerationSeconds = s;
        } else
            return false;
        return true;
    });
    return at;
}

/// Finds a key in a map node; returns 0 (never a valid child) when absent.
uint32_t findKey(const lean::Document& doc, uint32_t map, std::string_view key);

/// The top level every resource.k8s.io and scheduling.k8s.io kind shares: apiVersion and kind (the loader
/// dispatched on them), metadata, spec and status. readSpec(node, path) and readStatus(node, path) read the
/// last two; `finish` adds the checks across fields (a missing spec). True when the object added
/// no error.
template <class SpecFn, class StatusFn, class FinishFn>
bool readObject(Reader& r, uint32_t root, bool namespaced, api::ObjectMeta& meta, SpecFn&& readSpec,
    StatusFn&& readStatus, FinishFn&& finish)
{
    const size_t before = r.errorCount();
    const Path p;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path sp = p.field(k);
        if (k == "metadata")
            readObjectMeta(r, v, sp, namespaced, meta);
        else if (k == "spec")
            readSpec(v, sp);
        else if (k == "status")
            readStatus(v, sp);
        else if (k != "apiVersion" && k != "kind")
            return false;
        return true;
    });
    finish();
    meta.pos = r.pos(root);
    return r.errorCount() == before;
}

} // namespace drasim::yamlio
