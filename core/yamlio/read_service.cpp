// SPDX-License-Identifier: Apache-2.0
// core/v1 Service. Only spec.selector matters to the scheduler: PodTopologySpread's system
// default constraints spread the pods a Service selects (podtopologyspread/common.go
// helper.DefaultSelector). The name and the selector are validated as ValidateService does
// (pkg/apis/core/validation: ValidateServiceName is a DNS-1035 label, the selector's keys and
// values are labels); the rest of the spec is accepted as written and dropped, so a Service from
// `kubectl get -o yaml` loads whatever its type, ports and addresses.
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

/// The fields of core/v1 ServiceSpec other than selector (Kubernetes 1.37), none of which the
/// scheduler reads.
bool otherServiceSpecField(std::string_view k)
{
    static constexpr std::string_view kFields[] = { "ports", "clusterIP", "clusterIPs", "type", "externalIPs",
        "sessionAffinity", "loadBalancerIP", "loadBalancerSourceRanges", "externalName",
        "externalTrafficPolicy", "healthCheckNodePort", "publishNotReadyAddresses", "sessionAffinityConfig",
        "ipFamilies", "ipFamilyPolicy", "allocateLoadBalancerNodePorts", "loadBalancerClass",
        "internalTrafficPolicy", "trafficDistribution" };
    for (std::string_view f : kFields)
        if (k == f)
            return true;
    return false;
}

void readServiceSpec(Reader& r, uint32_t v, const Path& p, api::Service& out)
{
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "selector") {
            readLabels(r, fv, fp, out.selector); // ValidateLabels, as over metadata.labels
            return true;
        }
        return otherServiceSpecField(k);
    });
}

} // namespace

bool readService(Reader& r, uint32_t root, api::Service& out)
{
    const size_t before = r.errorCount();
    const Path p;
    r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "metadata")
            readObjectMeta(r, v, fp, true, out.meta, NameRule::Dns1035Label);
        else if (k == "spec")
            readServiceSpec(r, v, fp, out);
        else if (k != "apiVersion" && k != "kind" && k != "status")
            return false; // status (load balancer ingress, conditions) is tolerated wholesale
        return true;
    });
    out.meta.pos = r.pos(root);
    return r.errorCount() == before;
}

} // namespace drasim::yamlio
