// SPDX-License-Identifier: Apache-2.0
// Pod-level resources (spec.resources, PodLevelResources, beta and on since 1.34) and the
// restartPolicy of init containers (sidecars): what changes a pod's effective requests. The checks
// are the API server's validatePodResourceConsistency for requests: a pod-level request must cover
// the containers' aggregate (api/pod_requests.h), in its words.
#include "core/api/pod_requests.h"
#include "core/yamlio/object_readers.h"
#include "core/yamlio/read_device.h"

namespace drasim::yamlio {

void readResourceList(Reader& r, uint32_t node, const Path& p, api::ResourceList& out)
{
    r.getQuantityMap(node, p, out);
    for (const auto& [name, q] : out)
        if (q.sign() < 0)
            r.error(node, p.key(name),
                "Invalid value: \"" + q.toString() + "\": must be greater than or equal to 0");
}

void readPodLevelResources(Reader& r, uint32_t v, const Path& p, api::PodSpec& out)
{
    if (r.isNull(v) || clearedByGate(r, v, p, "PodLevelResources"))
        return;
    api::ResourceRequirements res;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k == "requests")
            readResourceList(r, fv, p.field(k), res.requests);
        else if (k == "limits")
            readResourceList(r, fv, p.field(k), res.limits);
        else
            return false;
        return true;
    });
    for (const auto* list : { &res.requests, &res.limits })
        for (const auto& [name, q] : *list)
            if (!api::isPodLevelResource(name))
                r.unsupported(v, p.field(list == &res.requests ? "requests" : "limits").key(name), name,
                    { "cpu", "hugepages-<size>", "memory" });
    validateResourceRequirements(r, v, p, res);
    out.resources = std::move(res);
}

void readNodeAllocatableClaimStatuses(
    Reader& r, uint32_t n, const Path& p, std::vector<api::NodeAllocatableResourceClaimStatus>& out)
{
    const auto optionalQuantity = [&](uint32_t v, const Path& qp, std::optional<Quantity>& q) {
        Quantity x;
        if (!r.isNull(v) && r.getQuantity(v, qp, x))
            q = x;
    };
    r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::NodeAllocatableResourceClaimStatus st;
        r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
            const Path fp = ip.field(k);
            if (k == "resourceClaimName") {
                r.getString(v, fp, st.resourceClaimName);
            } else if (k == "containers") {
                r.getStringList(v, fp, st.containers);
            } else if (k == "mapping") {
                r.items(v, fp, [&](size_t, uint32_t m, const Path& mp) {
                    api::NodeAllocatableMappedResource res;
                    r.fields(m, mp, [&](std::string_view mk, uint32_t, uint32_t mv) {
                        if (mk == "name")
                            r.getString(mv, mp.field(mk), res.name);
                        else if (mk == "quantity")
                            r.getQuantity(mv, mp.field(mk), res.quantity);
                        else
                            return false;
                        return true;
                    });
                    st.mapping.push_back(std::move(res));
                });
            } else if (k == "overhead") {
                r.items(v, fp, [&](size_t, uint32_t o, const Path& op) {
                    api::NodeAllocatableOverheadResource res;
                    r.fields(o, op, [&](std::string_view ok, uint32_t, uint32_t ov) {
                        if (ok == "name")
                            r.getString(ov, op.field(ok), res.name);
                        else if (ok == "perPod")
                            optionalQuantity(ov, op.field(ok), res.perPod);
                        else if (ok == "perContainer")
                            optionalQuantity(ov, op.field(ok), res.perContainer);
                        else
                            return false;
                        return true;
                    });
                    st.overhead.push_back(std::move(res));
                });
            } else {
                return false;
            }
            return true;
        });
        if (st.resourceClaimName.empty())
            r.required(item, ip.field("resourceClaimName"));
        out.push_back(std::move(st));
    });
}

void checkPodLevelRequests(Reader& r, uint32_t node, const Path& p, const api::PodSpec& spec)
{
    if (!spec.resources || spec.resources->requests.empty())
        return;
    const api::ResourceList aggregate = api::aggregateContainerQuantities(spec);
    const uint32_t requests = findKey(r.doc(), node, "requests");
    for (const auto& [name, podLevel] : spec.resources->requests) {
        const auto it = aggregate.find(name);
        const uint32_t at = requests ? findKey(r.doc(), requests, name) : 0;
        if (api::isPodLevelResource(name) && it != aggregate.end() && it->second > podLevel)
            r.error(at ? at : node, p.field("resources").field("requests").key(name),
                "Invalid value: \"" + podLevel.toString()
                    + "\": must be greater than or equal to aggregate container requests of "
                    + it->second.toString());
    }
}

} // namespace drasim::yamlio
