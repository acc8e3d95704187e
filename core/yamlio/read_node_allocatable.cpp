// SPDX-License-Identifier: Apache-2.0
// Device.nodeAllocatableResources (DRANodeAllocatableResources, 1.37 alpha, KEP-5517): which
// node-allocatable resource a device is, or costs. The rules are the KEP's and the 1.37 API
// types' tags (a union of deviceMultiplier and capacityKey, capacityMultiplier required with
// capacityKey, at least one of mapping and overhead); the error words are drasim's in the API
// server's style, as the 1.37 validation messages were not available to us.
#include "core/yamlio/read_device.h"

namespace drasim::yamlio {

namespace {

bool nodeAllocatableResourceName(std::string_view name)
{
    return name == "cpu" || name == "memory" || (name.rfind("hugepages-", 0) == 0 && name.size() > 10);
}

void readNonNegative(Reader& r, uint32_t v, const Path& p, std::optional<Quantity>& out)
{
    Quantity q;
    if (r.isNull(v) || !r.getQuantity(v, p, q))
        return;
    if (q.sign() < 0)
        r.invalid(v, p, q.toString(), "must be greater than or equal to 0");
    out = q;
}

void readMapping(Reader& r, uint32_t v, const Path& p, api::NodeAllocatableMapping& m)
{
    uint32_t keyNode = v;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "deviceMultiplier") {
            readNonNegative(r, fv, fp, m.deviceMultiplier);
        } else if (k == "capacityMultiplier") {
            readNonNegative(r, fv, fp, m.capacityMultiplier);
        } else if (k == "capacityKey") {
            std::string key;
            if (!r.isNull(fv) && r.getString(fv, fp, key)) {
                keyNode = fv;
                reportNameIssues(r, fv, fp, qualifiedNameIssues(key, false));
                m.capacityKey = key;
            }
        } else {
            return false;
        }
        return true;
    });
    if (m.deviceMultiplier && m.capacityKey)
        r.error(v, p, "Invalid value: must specify exactly one of: `deviceMultiplier`, `capacityKey`");
    else if (!m.deviceMultiplier && !m.capacityKey)
        r.error(v, p, "Invalid value: must specify one of: `deviceMultiplier`, `capacityKey`");
    if (m.capacityKey && !m.capacityMultiplier)
        r.required(keyNode, p.field("capacityMultiplier"));
    if (m.capacityMultiplier && !m.capacityKey)
        r.error(v, p.field("capacityMultiplier"), "Forbidden: may only be set together with `capacityKey`");
}

void readOverhead(Reader& r, uint32_t v, const Path& p, api::NodeAllocatableOverhead& o)
{
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k == "perPod")
            readNonNegative(r, fv, p.field(k), o.perPod);
        else if (k == "perContainer")
            readNonNegative(r, fv, p.field(k), o.perContainer);
        else
            return false;
        return true;
    });
    if (!o.perPod && !o.perContainer)
        r.error(v, p, "Required value: at least one of `perPod` and `perContainer` must be set");
}

} // namespace

void readNodeAllocatableResources(
    Reader& r, uint32_t n, const Path& p, std::map<std::string, api::NodeAllocatableResource>& out)
{
    r.fields(n, p, [&](std::string_view name, uint32_t keyNode, uint32_t v) {
        const Path rp = p.key(name);
        if (!nodeAllocatableResourceName(name))
            r.unsupported(keyNode, rp, name, { "cpu", "hugepages-<size>", "memory" });
        api::NodeAllocatableResource res;
        r.fields(v, rp, [&](std::string_view k, uint32_t, uint32_t fv) {
            if (r.isNull(fv))
                return k == "mapping" || k == "overhead";
            if (k == "mapping")
                readMapping(r, fv, rp.field(k), res.mapping.emplace());
            else if (k == "overhead")
                readOverhead(r, fv, rp.field(k), res.overhead.emplace());
            else
                return false;
            return true;
        });
        if (!res.mapping && !res.overhead)
            r.error(v, rp, "Required value: at least one of `mapping` and `overhead` must be set");
        out[std::string(name)] = std::move(res);
        return true;
    });
    if (r.nodeKind(n) == YamlNode::Kind::Map && r.mapSize(n) == 0)
        r.required(n, p);
}

} // namespace drasim::yamlio
