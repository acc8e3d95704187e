// SPDX-License-Identifier: Apache-2.0
#include "core/topology/slice_generator.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/topology/device_models.h"
#include "core/topology/mig_placement.h"

namespace drasim::topology {

namespace {

constexpr const char* kStd = "resource.kubernetes.io/";

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull)
{
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Mixes the FNV state further so that nearby inputs give unrelated hex digits.
uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

api::DeviceAttribute str(std::string s)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = std::move(s);
    return a;
}

api::DeviceAttribute ver(std::string s)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Version;
    a.stringValue = std::move(s);
    return a;
}

api::DeviceAttribute integer(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

api::DeviceAttribute boolean(bool v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Bool;
    a.boolValue = v;
    return a;
}

api::DeviceCapacity cap(Quantity q)
{
    api::DeviceCapacity c;
    c.value = std::move(q);
    return c;
}

api::DeviceCapacity capInt(int64_t v)
{
    return cap(Quantity::fromInt(v, Quantity::Format::DecimalSI));
}

Quantity mib(int64_t m)
{
    return Quantity::fromInt(m * 1024 * 1024, Quantity::Format::BinarySI);
}

// "0000:18:00.0" → "0000-18-00-0" (Intel and dranet device-name style).
std::string dashed(const std::string& bdf)
{
    std::string out = bdf;
    for (char& ch : out)
        if (ch == ':' || ch == '.')
            ch = '-';
    return out;
}

struct Bdf
{
    int domain = 0, bus = 0, dev = 0, fn = 0;
    bool ok = false;
};

Bdf parseBdf(const std::string& s)
{
    Bdf b;
    b.ok = std::sscanf(s.c_str(), "%x:%x:%x.%x", &b.domain, &b.bus, &b.dev, &b.fn) == 4;
    return b;
}

std::string lowerDnsLabel(const std::string& s)
{
    std::string out;
    for (char ch : s) {
        char c = char(std::tolower(static_cast<unsigned char>(ch)));
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '-';
    }
    while (!out.empty() && out.front() == '-')
        out.erase(out.begin());
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

// NVIDIA names MIG devices with the profile minus dots, lower-cased, other characters → '-'
// (so "1g.10gb+me" becomes "1g10gb-me").
std::string migNamePart(const std::string& profile)
{
    std::string noDots;
    for (char ch : profile)
        if (ch != '.')
            noDots += ch;
    return lowerDnsLabel(noDots);
}

std::string pciVendorName(const std::string& id)
{
    if (id == "0x15b3")
        return "Mellanox Technologies";
    if (id == "0x14e4")
        return "Broadcom Inc. and subsidiaries";
    if (id == "0x8086")
        return "Intel Corporation";
    if (id == "0x1d0f")
        return "Amazon.com, Inc.";
    return id;
}

enum class PatchKind { Uuid, MigUuid, ExampleUuid, Mac, Serial };

struct Patch
{
    std::string attr;
    PatchKind kind;
    std::string seed;
};

struct ProtoDevice
{
    api::Device device;
    std::vector<Patch> patches;
};

struct ProtoSlice
{
    std::string driver;
    std::vector<ProtoDevice> devices;
    std::vector<api::CounterSet> counters;
};

} // namespace

std::string deterministicUuid(const std::string& nodeName, const std::string& seed)
{
    const uint64_t h1 = mix(fnv1a(seed, fnv1a(nodeName)));
    const uint64_t h2 = mix(h1 ^ fnv1a(nodeName + "#" + seed));
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(h1 >> 32),
        unsigned((h1 >> 16) & 0xffff), unsigned(h1 & 0xffff), unsigned(h2 >> 48),
        static_cast<unsigned long long>(h2 & 0xffffffffffffull));
    return buf;
}

std::string deterministicMac(const std::string& nodeName, const std::string& seed)
{
    const uint64_t h = mix(fnv1a(seed, fnv1a(nodeName)));
    char buf[24];
    // Locally administered, unicast: first octet x2/x6/xA/xE.
    std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", unsigned(((h >> 40) & 0xfc) | 0x02),
        unsigned((h >> 32) & 0xff), unsigned((h >> 24) & 0xff), unsigned((h >> 16) & 0xff),
        unsigned((h >> 8) & 0xff), unsigned(h & 0xff));
    return buf;
}

struct SliceGenerator::Impl
{
    GenerateOptions options;
    std::vector<ProtoSlice> slices; // in publication order; one pool per driver
    std::map<std::string, int> poolSliceCount;
    std::map<std::pair<std::string, std::string>, DeviceLocation> index;
    api::Node nodeProto;
};

namespace {

struct SliceBuilder
{
    const Topology& topo;
    const GenerateOptions& opt;
    Diagnostics* diag;
    std::vector<ProtoSlice>& out;
    std::map<std::pair<std::string, std::string>, DeviceLocation>& index;
    int m_wholeInStaticMode = 0; ///< MIG-capable GPUs left whole in static mode (no layout)
    std::set<std::string> m_badOptionLayout; ///< models the options' MIG layout does not fit
    int m_withLayout = 0; ///< MIG-capable GPUs split by a static layout

    const NodeShape& shape() const { return topo.shape(); }

    void problem(const Component& c, const std::string& field, const std::string& msg) const
    {
        if (diag)
            diag->error(c.pos, "NodeShape", shape().name, field, msg);
    }

    void addStandard(std::map<std::string, api::DeviceAttribute>& attrs, int comp, bool busId) const
    {
        const auto& c = shape().components[comp];
        if (busId && !c.busId.empty())
            attrs[std::string(kStd) + "pciBusID"] = str(c.busId);
        auto root = topo.pcieRoot(comp);
        if (!root.empty())
            attrs[std::string(kStd) + "pcieRoot"] = str(root);
        if (opt.standardNumaNode && topo.numaNode(comp) >= 0)
            attrs[std::string(kStd) + "numaNode"] = integer(topo.numaNode(comp));
    }

    // Packs devices into slices of at most `limit` devices (API validation limit).
    void emitChunked(const std::string& driver, std::vector<ProtoDevice> devices, size_t limit)
    {
        if (devices.empty())
            return;
        for (size_t i = 0; i < devices.size(); i += limit) {
            ProtoSlice s;
            s.driver = driver;
            auto end = std::min(devices.size(), i + limit);
            s.devices.assign(
                std::make_move_iterator(devices.begin() + i), std::make_move_iterator(devices.begin() + end));
            out.push_back(std::move(s));
        }
    }

    void record(
        const std::string& driver, const std::string& device, int comp, const std::string& profile = {})
    {
        index[{ driver, device }] = DeviceLocation { comp, profile };
    }

    // ---- NVIDIA ----------------------------------------------------------------------------
    std::map<std::string, api::DeviceAttribute> nvidiaCommon(int comp, const DeviceModel& m) const
    {
        const auto& c = shape().components[comp];
        std::map<std::string, api::DeviceAttribute> a;
        a["productName"] = str(m.productName);
        a["brand"] = str(m.brand.empty() ? "Nvidia" : m.brand);
        a["architecture"] = str(m.architecture);
        a["cudaComputeCapability"] = ver(m.computeCapability);
        a["driverVersion"] = ver(shape().nvidia.driverVersion);
        a["cudaDriverVersion"] = ver(shape().nvidia.cudaDriverVersion);
        if (opt.nvidiaRelease == "25.3" || opt.nvidiaRelease == "25.8") {
            if (!c.busId.empty())
                a["pcieBusID"] = str(c.busId);
            addStandard(a, comp, false);
        } else {
            // Grace-based systems address GPU memory through ATS, x86 hosts through HMM.
            a["addressingMode"] = str(shape().arch == "arm64" ? "ATS" : "HMM");
            addStandard(a, comp, true);
        }
        if (opt.nvidiaRelease == "25.3") {
            a["index"] = integer(c.index);
            a["minor"] = integer(c.index);
        }
        return a;
    }

    static std::vector<std::pair<std::string, int64_t>> migCaps(const MigProfile& p)
    {
        return { { "multiprocessors", p.multiprocessors }, { "copyEngines", p.copyEngines },
            { "decoders", p.decoders }, { "encoders", p.encoders }, { "jpegEngines", p.jpegEngines },
            { "ofaEngines", p.ofaEngines } };
    }

    static std::string camelToDns(const std::string& s)
    {
        std::string out;
        for (char ch : s) {
            if (std::isupper(static_cast<unsigned char>(ch))) {
                out += '-';
                out += char(std::tolower(static_cast<unsigned char>(ch)));
            } else {
                out += ch;
            }
        }
        return out;
    }

    // The whole GPU as one device (no MIG, or Hopper and newer next to its partitions).
    ProtoDevice nvidiaFullGpu(int comp, const DeviceModel& m, const std::string& gpuName)
    {
        const auto& c = shape().components[comp];
        ProtoDevice d;
        d.device.name = gpuName;
        d.device.attributes = nvidiaCommon(comp, m);
        d.device.attributes["type"] = str("gpu");
        d.device.attributes["uuid"] = str("");
        d.patches.push_back({ "uuid", PatchKind::Uuid, c.name });
        if (m.memory)
            d.device.capacity["memory"] = cap(*m.memory);
        record("gpu.nvidia.com", gpuName, comp);
        return d;
    }

    // KEP-4815 partitionable layout: a per-GPU counter set with the maxima over all profiles plus
    // one counter per memory slice, and one device slice with every placement of every profile.
    void nvidiaPartitionable(int comp, const DeviceModel& m, const std::string& gpuName,
        std::vector<api::CounterSet>& counterSets, std::vector<ProtoSlice>& perGpu)
    {
        const auto& c = shape().components[comp];
        std::map<std::string, int64_t> maxima;
        int64_t maxMem = 0;
        for (const auto& p : m.migProfiles) {
            for (const auto& [k, v] : migCaps(p))
                maxima[k] = std::max(maxima[k], v);
            maxMem = std::max(maxMem, p.memoryMiB);
        }
        api::CounterSet cs;
        cs.name = gpuName + "-counter-set";
        for (const auto& [k, v] : maxima)
            cs.counters[camelToDns(k)] = Quantity::fromInt(v);
        cs.counters["memory"] = mib(maxMem);
        for (int i = 0; i < m.migMemorySlices; ++i)
            cs.counters["memory-slice-" + std::to_string(i)] = Quantity::fromInt(1);
        counterSets.push_back(cs);

        ProtoSlice s;
        s.driver = "gpu.nvidia.com";
        // Ampere cannot toggle MIG mode at runtime, so there the full GPU is not offered.
        if (m.architecture != "Ampere") {
            auto d = nvidiaFullGpu(comp, m, gpuName);
            d.device.capacity.clear();
            for (const auto& [k, v] : maxima)
                d.device.capacity[k] = capInt(v);
            d.device.capacity["memory"] = cap(mib(maxMem));
            api::DeviceCounterConsumption use;
            use.counterSet = cs.name;
            use.counters = cs.counters;
            d.device.consumesCounters.push_back(use);
            s.devices.push_back(std::move(d));
        }
        for (const auto& p : m.migProfiles) {
            for (int start : p.starts) {
                ProtoDevice d;
                d.device.name = gpuName + "-mig-" + migNamePart(p.name) + "-" + std::to_string(p.giProfileId)
                    + "-" + std::to_string(start);
                d.device.attributes = nvidiaCommon(comp, m);
                d.device.attributes["type"] = str("mig");
                d.device.attributes["profile"] = str(p.name);
                d.device.attributes["parentUUID"] = str("");
                d.patches.push_back({ "parentUUID", PatchKind::Uuid, c.name });
                api::DeviceCounterConsumption use;
                use.counterSet = cs.name;
                for (const auto& [k, v] : migCaps(p)) {
                    d.device.capacity[k] = capInt(v);
                    use.counters[camelToDns(k)] = Quantity::fromInt(v);
                }
                d.device.capacity["memory"] = cap(mib(p.memoryMiB));
                use.counters["memory"] = mib(p.memoryMiB);
                for (int i = start; i < start + p.memorySlices; ++i)
                    use.counters["memory-slice-" + std::to_string(i)] = Quantity::fromInt(1);
                d.device.consumesCounters.push_back(use);
                record("gpu.nvidia.com", d.device.name, comp, p.name);
                s.devices.push_back(std::move(d));
            }
        }
        std::sort(s.devices.begin(), s.devices.end(),
            [](const ProtoDevice& a, const ProtoDevice& b) { return a.device.name < b.device.name; });
        perGpu.push_back(std::move(s));
    }

    // Static MIG: the instances of a layout placed on the GPU, each a device of the flat slice.
    void nvidiaStaticMig(int comp, const DeviceModel& m, const std::string& gpuName,
        const std::vector<std::string>& layout, std::vector<ProtoDevice>& flat)
    {
        const auto& c = shape().components[comp];
        std::string error;
        auto placed = placeMigLayout(m, layout, &error);
        if (!placed) {
            // A layout from the options is one mistake, whatever the GPU count: say it
            // once per model and without pointing into the shape file.
            if (!c.migLayout.empty())
                problem(c, "migLayout", error);
            else if (m_badOptionLayout.insert(m.id).second && diag)
                diag->error(SourcePos {}, "NodeShape", shape().name, "--mig-layout", error);
            return;
        }
        for (const auto& inst : *placed) {
            const MigProfile& p = *inst.profile;
            ProtoDevice d;
            d.device.name = gpuName + "-mig-" + migNamePart(p.name) + "-" + std::to_string(p.giProfileId)
                + "-" + std::to_string(inst.start);
            d.device.attributes = nvidiaCommon(comp, m);
            d.device.attributes["type"] = str("mig");
            d.device.attributes["uuid"] = str("");
            d.device.attributes["parentUUID"] = str("");
            d.device.attributes["profile"] = str(p.name);
            d.patches.push_back({ "uuid", PatchKind::MigUuid, c.name + "/" + d.device.name });
            d.patches.push_back({ "parentUUID", PatchKind::Uuid, c.name });
            for (const auto& [k, v] : migCaps(p))
                d.device.capacity[k] = capInt(v);
            d.device.capacity["memory"] = cap(mib(p.memoryMiB));
            for (int i = inst.start; i < inst.start + p.memorySlices; ++i)
                d.device.capacity["memorySlice" + std::to_string(i)] = capInt(1);
            record("gpu.nvidia.com", d.device.name, comp, p.name);
            flat.push_back(std::move(d));
        }
    }

    void nvidia()
    {
        const std::string driver = "gpu.nvidia.com";
        const MigMode mode = opt.mig ? *opt.mig : shape().nvidia.mig;
        std::vector<ProtoDevice> flat; // None / Static: one slice
        std::vector<ProtoSlice> perGpu; // Dynamic: one device slice per GPU
        std::vector<api::CounterSet> counterSets;
        for (int comp : shape().devicesOfKind(ComponentKind::Gpu)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "nvidia")
                continue;
            const std::string gpuName = "gpu-" + std::to_string(c.index);
            const bool migCapable = m->migMemorySlices > 0 && !m->migProfiles.empty();
            if (mode == MigMode::Dynamic && migCapable) {
                nvidiaPartitionable(comp, *m, gpuName, counterSets, perGpu);
                continue;
            }
            const std::vector<std::string>& layout = c.migLayout.empty() ? opt.migLayout : c.migLayout;
            if (mode == MigMode::Static && migCapable && layout.empty())
                ++m_wholeInStaticMode;
            if (mode == MigMode::Static && migCapable && !layout.empty()) {
                ++m_withLayout;
                nvidiaStaticMig(comp, *m, gpuName, layout, flat);
            } else if (mode == MigMode::Dynamic) {
                ProtoSlice s;
                s.driver = driver;
                s.devices.push_back(nvidiaFullGpu(comp, *m, gpuName));
                perGpu.push_back(std::move(s));
            } else {
                flat.push_back(nvidiaFullGpu(comp, *m, gpuName));
            }
        }
        // Mixed layouts (some GPUs split, others whole, like the "half-balanced" demo) are
        // deliberate; only a static mode with no layout at all is probably a mistake.
        if (m_wholeInStaticMode > 0 && m_withLayout == 0 && diag)
            diag->warning(shape().pos, "NodeShape", shape().name, "spec.nvidia.mig",
                "static MIG without a layout: " + std::to_string(m_wholeInStaticMode)
                    + " GPU(s) have no migLayout and are published whole (give --mig-layout or a "
                      "migLayout per GPU)");
        if (mode == MigMode::Dynamic) {
            // K8s 1.35+: counters in their own slice, then one device slice per GPU.
            for (size_t i = 0; i < counterSets.size(); i += 8) {
                ProtoSlice s;
                s.driver = driver;
                auto end = std::min(counterSets.size(), i + 8);
                s.counters.assign(counterSets.begin() + i, counterSets.begin() + end);
                out.push_back(std::move(s));
            }
            for (auto& s : perGpu)
                out.push_back(std::move(s));
        } else {
            emitChunked(driver, std::move(flat), 128);
        }
    }

    // ---- AMD -------------------------------------------------------------------------------
    void amd()
    {
        const std::string driver = "gpu.amd.com";
        std::vector<ProtoDevice> devs;
        for (int comp : shape().devicesOfKind(ComponentKind::Gpu)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "amd")
                continue;
            ProtoDevice d;
            // card N pairs with render node 128+N (DRM minor numbering).
            d.device.name = "gpu-" + std::to_string(c.index) + "-" + std::to_string(128 + c.index);
            auto& a = d.device.attributes;
            a["type"] = str("amdgpu");
            a["deviceID"] = str(m->pciDeviceId);
            a["productName"] = str(m->productName);
            a["driverVersion"] = ver("6.12.12");
            a["partitionProfile"] = str("spx_nps1");
            if (topo.numaNode(comp) >= 0)
                a["numaNode"] = integer(topo.numaNode(comp));
            addStandard(a, comp, true);
            if (m->computeUnits)
                d.device.capacity["computeUnits"] = capInt(m->computeUnits);
            if (m->memory)
                d.device.capacity["memory"] = cap(*m->memory);
            if (m->simdUnits)
                d.device.capacity["simdUnits"] = capInt(m->simdUnits);
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
        }
        emitChunked(driver, std::move(devs), 128);
    }

    // ---- Intel GPU and Gaudi -----------------------------------------------------------------
    static std::string rootBus(const Topology& t, int comp)
    {
        auto root = t.pcieRoot(comp); // "pci0000:15"
        auto colon = root.rfind(':');
        return colon == std::string::npos ? std::string() : root.substr(colon + 1);
    }

    void intelGpu()
    {
        const std::string driver = "gpu.intel.com";
        std::vector<ProtoDevice> devs;
        for (int comp : shape().devicesOfKind(ComponentKind::Gpu)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "intel-gpu")
                continue;
            ProtoDevice d;
            d.device.name = dashed(c.busId) + "-" + m->pciDeviceId;
            auto& a = d.device.attributes;
            a["model"] = str(m->productName);
            a["family"] = str(m->brand);
            a["driver"] = str("i915");
            a["sriov"] = boolean(false);
            a["type"] = str("gpu");
            a["pciId"] = str(m->pciDeviceId);
            a["health"] = str("Healthy");
            a["pciAddress"] = str(c.busId);
            a["pciRoot"] = str(rootBus(topo, comp));
            addStandard(a, comp, true);
            if (m->memory)
                d.device.capacity["memory"] = cap(*m->memory);
            d.device.capacity["millicores"] = cap(Quantity::fromInt(1000));
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
        }
        emitChunked(driver, std::move(devs), 128);
    }

    void gaudi()
    {
        const std::string driver = "gaudi.intel.com";
        std::vector<ProtoDevice> devs;
        for (int comp : shape().devicesOfKind(ComponentKind::Accelerator)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "gaudi")
                continue;
            ProtoDevice d;
            d.device.name = dashed(c.busId) + "-" + m->pciDeviceId;
            auto& a = d.device.attributes;
            a["model"] = str(m->productName);
            a["serial"] = str("");
            d.patches.push_back({ "serial", PatchKind::Serial, c.name });
            a["healthy"] = boolean(true);
            a["pciRoot"] = str(rootBus(topo, comp));
            addStandard(a, comp, false);
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
        }
        emitChunked(driver, std::move(devs), 128);
    }

    // ---- dranet ------------------------------------------------------------------------------
    void dranet()
    {
        const std::string driver = "dra.net";
        std::vector<ProtoDevice> devs;
        int rdmaOrdinal = 0;
        for (int comp : shape().devicesOfKind(ComponentKind::Nic)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "dranet")
                continue;
            const Bdf b = parseBdf(c.busId);
            if (m->rdma && !c.primary)
                ++rdmaOrdinal;
            // dranet leaves the interface carrying the node's default route alone.
            if (c.primary || !b.ok)
                continue;
            char name[40];
            std::snprintf(name, sizeof name, "pci-%04x-%02x-%02x-%x", b.domain, b.bus, b.dev, b.fn);
            ProtoDevice d;
            d.device.name = name;
            auto& a = d.device.attributes;
            const std::string p = "dra.net/";
            const bool ib = m->encapsulation == "infiniband";
            std::string ifName = c.ifName;
            if (ifName.empty()) {
                char buf[32];
                // systemd predictable names: ibp<bus>s<slot> / enp<bus>s<slot>[f<fn>]np<port>.
                if (ib)
                    std::snprintf(buf, sizeof buf, "ibp%ds%d", b.bus, b.dev);
                else if (b.fn > 0)
                    std::snprintf(buf, sizeof buf, "enp%ds%df%dnp%d", b.bus, b.dev, b.fn, b.fn);
                else
                    std::snprintf(buf, sizeof buf, "enp%ds%dnp0", b.bus, b.dev);
                ifName = buf;
            }
            a[p + "ifName"] = str(ifName);
            a[p + "pciAddress"] = str(c.busId);
            if (c.mac.empty()) {
                a[p + "mac"] = str("");
                d.patches.push_back({ p + "mac", PatchKind::Mac, c.name });
            } else {
                a[p + "mac"] = str(c.mac);
            }
            a[p + "pciVendor"] = str(pciVendorName(m->pciVendorId));
            a[p + "pciDevice"] = str(m->pciDeviceName);
            if (topo.numaNode(comp) >= 0)
                a[p + "numaNode"] = integer(topo.numaNode(comp));
            a[p + "mtu"] = integer(ib ? 4092 : 9000);
            a[p + "encapsulation"] = str(m->encapsulation.empty() ? "ether" : m->encapsulation);
            a[p + "state"] = str("up");
            a[p + "type"] = str("device");
            a[p + "virtual"] = boolean(false);
            a[p + "sriov"] = boolean(false);
            a[p + "rdma"] = boolean(m->rdma);
            if (m->rdma) {
                std::string rdmaDev = c.rdmaDevice;
                if (rdmaDev.empty()) {
                    const int n = rdmaOrdinal - 1;
                    if (m->pciVendorId == "0x14e4")
                        rdmaDev = "bnxt_re" + std::to_string(n);
                    else if (m->pciVendorId == "0x8086")
                        rdmaDev = "irdma" + std::to_string(n);
                    else
                        rdmaDev = "mlx5_" + std::to_string(n);
                }
                a[p + "rdmaDevice"] = str(rdmaDev);
            }
            addStandard(a, comp, false);
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
        }
        emitChunked(driver, std::move(devs), 128);
    }

    // ---- FPGA (neutral example driver, real-world.md §7) --------------------------------------
    void fpga()
    {
        const std::string driver = "fpga.example.com";
        std::vector<ProtoDevice> devs;
        for (int comp : shape().devicesOfKind(ComponentKind::Fpga)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "fpga")
                continue;
            ProtoDevice d;
            d.device.name = "fpga-" + std::to_string(c.index);
            auto& a = d.device.attributes;
            a["type"] = str("fpga");
            a["board"] = str(m->board);
            a["shell"] = str(m->shell);
            a["xrtVersion"] = ver("2.17.319");
            a["vendorID"] = str(m->pciVendorId);
            a["deviceID"] = str(m->pciDeviceId);
            a["serial"] = str("");
            d.patches.push_back({ "serial", PatchKind::Serial, c.name });
            if (topo.numaNode(comp) >= 0)
                a["numaNode"] = integer(topo.numaNode(comp));
            addStandard(a, comp, true);
            if (m->memory)
                d.device.capacity["memory"] = cap(*m->memory);
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
        }
        emitChunked(driver, std::move(devs), 128);
    }

    // ---- dra-example-driver ------------------------------------------------------------------
    void example()
    {
        const std::string driver = "gpu.example.com";
        std::vector<ProtoDevice> devs;
        int i = 0;
        for (int comp : shape().devicesOfKind(ComponentKind::Gpu)) {
            const auto& c = shape().components[comp];
            const DeviceModel* m = shape().modelOf(c);
            if (!m || m->vendorDriver != "example")
                continue;
            ProtoDevice d;
            d.device.name = "gpu-" + std::to_string(i);
            auto& a = d.device.attributes;
            a["index"] = integer(i);
            a["uuid"] = str("");
            d.patches.push_back({ "uuid", PatchKind::ExampleUuid, c.name });
            a["model"] = str(m->productName);
            a["driverVersion"] = ver("1.0.0");
            if (m->memory)
                d.device.capacity["memory"] = cap(*m->memory);
            d.device.capacity["compute"] = capInt(100);
            record(driver, d.device.name, comp);
            devs.push_back(std::move(d));
            ++i;
        }
        emitChunked(driver, std::move(devs), 128);
    }
};

std::string patchValue(PatchKind kind, const std::string& nodeName, const std::string& seed)
{
    switch (kind) {
    case PatchKind::Uuid:
        return "GPU-" + deterministicUuid(nodeName, seed);
    case PatchKind::MigUuid:
        return "MIG-" + deterministicUuid(nodeName, seed);
    case PatchKind::ExampleUuid:
        return "gpu-" + deterministicUuid(nodeName, seed);
    case PatchKind::Mac:
        return deterministicMac(nodeName, seed);
    case PatchKind::Serial: {
        char buf[24];
        std::snprintf(
            buf, sizeof buf, "%016llx", static_cast<unsigned long long>(mix(fnv1a(seed, fnv1a(nodeName)))));
        return buf;
    }
    }
    return {};
}

} // namespace

SliceGenerator::SliceGenerator(
    std::shared_ptr<const Topology> topology, GenerateOptions options, Diagnostics* diag)
    : m_topology(std::move(topology))
    , m_impl(std::make_unique<Impl>())
{
    Impl& d = *m_impl;
    d.options = std::move(options);
    SliceBuilder b { *m_topology, d.options, diag, d.slices, d.index, 0, {}, 0 };
    // Drivers in name order, so the output lists pools sorted by driver.
    b.dranet();
    b.fpga();
    b.gaudi();
    b.amd();
    b.example();
    b.intelGpu();
    b.nvidia();
    std::stable_sort(d.slices.begin(), d.slices.end(),
        [](const ProtoSlice& x, const ProtoSlice& y) { return x.driver < y.driver; });
    for (const auto& s : d.slices)
        ++d.poolSliceCount[s.driver];

    const NodeShape& shape = m_topology->shape();
    api::Node& n = d.nodeProto;
    n.meta.labels["kubernetes.io/os"] = "linux";
    n.meta.labels["kubernetes.io/arch"] = shape.arch;
    n.meta.labels["node.kubernetes.io/instance-type"] = shape.name;
    for (const auto& [k, v] : shape.labels)
        n.meta.labels[k] = v;
    n.capacity["cpu"] = Quantity::fromInt(shape.logicalCpus());
    // An import that does not know the memory (nvidia-smi) publishes none rather than "0".
    if (shape.memoryKnown())
        n.capacity["memory"] = shape.totalMemory();
    n.capacity["pods"] = Quantity::fromInt(shape.maxPods);
    n.allocatable = n.capacity;
    n.allocatable["cpu"] = n.capacity["cpu"].sub(shape.reservedCpu);
    if (shape.memoryKnown())
        n.allocatable["memory"] = n.capacity["memory"].sub(shape.reservedMemory);
}

SliceGenerator::~SliceGenerator() = default;

const std::map<std::pair<std::string, std::string>, DeviceLocation>& SliceGenerator::deviceIndex() const
{
    return m_impl->index;
}

std::vector<std::string> SliceGenerator::drivers() const
{
    std::vector<std::string> out;
    for (const auto& [drv, n] : m_impl->poolSliceCount)
        out.push_back(drv);
    return out;
}

void SliceGenerator::generateInto(const std::string& nodeName, api::ObjectSet& out) const
{
    const Impl& d = *m_impl;
    api::Node node = d.nodeProto;
    node.meta.name = nodeName;
    node.meta.uid = deterministicUuid(nodeName, "node");
    node.meta.labels["kubernetes.io/hostname"] = nodeName;

    std::map<std::string, int> ordinal;
    for (const auto& proto : d.slices) {
        api::ResourceSlice s;
        const int k = ordinal[proto.driver]++;
        // Real slices are named by generateName "<node>-<driver>-" plus a random suffix; we use
        // the slice's ordinal so names are stable and sort in publication order.
        s.meta.generateName = nodeName + "-" + proto.driver + "-";
        // Zero-padded when a pool has ten or more slices, so name order is publication order.
        std::string ordinalText = std::to_string(k);
        const size_t width = std::to_string(d.poolSliceCount.at(proto.driver) - 1).size();
        if (ordinalText.size() < width)
            ordinalText.insert(0, width - ordinalText.size(), '0');
        s.meta.name = s.meta.generateName + ordinalText;
        api::OwnerReference owner;
        owner.apiVersion = "v1";
        owner.kind = "Node";
        owner.name = nodeName;
        owner.uid = node.meta.uid;
        owner.controller = true;
        s.meta.ownerReferences.push_back(std::move(owner));
        s.driver = proto.driver;
        s.pool.name = nodeName;
        s.pool.generation = d.options.generation;
        s.pool.resourceSliceCount = d.poolSliceCount.at(proto.driver);
        s.nodeName = nodeName;
        s.sharedCounters = proto.counters;
        s.devices.reserve(proto.devices.size());
        for (const auto& pd : proto.devices) {
            s.devices.push_back(pd.device);
            auto& dev = s.devices.back();
            for (const auto& p : pd.patches)
                dev.attributes[p.attr].stringValue = patchValue(p.kind, nodeName, p.seed);
        }
        out.resourceSlices.push_back(std::move(s));
    }
    out.nodes.push_back(std::move(node));
}

NodeObjects SliceGenerator::generate(const std::string& nodeName) const
{
    api::ObjectSet set;
    generateInto(nodeName, set);
    NodeObjects o;
    o.node = std::move(set.nodes.front());
    o.slices = std::move(set.resourceSlices);
    return o;
}

} // namespace drasim::topology
