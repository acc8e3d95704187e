// SPDX-License-Identifier: Apache-2.0
#include "core/topology/device_models.h"

#include <algorithm>

namespace drasim::topology {

namespace {

// Sources for the figures below:
// - MIG profiles: NVIDIA MIG User Guide "Supported MIG Profiles" tables (A100, H100, H200, B200)
//   and published `nvidia-smi mig -lgip` listings. Memory sizes are the MiB values NVML reports
//   (MemorySizeMB); where a listing was not available the value is the listed GiB rounded to
//   1/8 GiB, which is what -lgip prints. Placement starts follow the guide's placement diagrams
//   (7 compute slices, 8 memory slices).
// - Full-GPU memory: `nvidia-smi --query-gpu=memory.total` values seen in public outputs.
// - PCI ids: pci.ids (vendor 10de NVIDIA, 1002 AMD, 1da3 Habana, 15b3 Mellanox, 10ee Xilinx,
//   14e4 Broadcom, 8086 Intel).

MigProfile mp(const char* name, int id, int cs, int ms, std::vector<int> starts, int sm, int ce, int dec,
    int enc, int jpg, int ofa, int64_t memMiB)
{
    MigProfile p;
    p.name = name;
    p.giProfileId = id;
    p.computeSlices = cs;
    p.memorySlices = ms;
    p.starts = std::move(starts);
    p.multiprocessors = sm;
    p.copyEngines = ce;
    p.decoders = dec;
    p.encoders = enc;
    p.jpegEngines = jpg;
    p.ofaEngines = ofa;
    p.memoryMiB = memMiB;
    return p;
}

const std::vector<int> kStarts1 = { 0, 1, 2, 3, 4, 5, 6 };
const std::vector<int> kStarts2Small = { 0, 2, 4, 6 }; // 1g with double memory
const std::vector<int> kStarts2 = { 0, 2, 4 }; // 2g
const std::vector<int> kStarts4 = { 0, 4 }; // 3g
const std::vector<int> kStarts0 = { 0 }; // 4g, 7g

// Hopper/Blackwell family: 1g, 1g+me, 1g double memory, 2g, 3g, 4g, 7g. mem[] = MiB per
// profile size class: {1 slice, 2 slices, 4 slices, 8 slices}. sm[] = SMs for 1g, 1g-double,
// 2g, 3g, 4g, 7g.
std::vector<MigProfile> hopperProfiles(const std::string& g1, const std::string& g2, const std::string& g4,
    const std::string& g8, const int64_t mem[4], const int sm[6])
{
    return {
        mp(("1g." + g1).c_str(), 19, 1, 1, kStarts1, sm[0], 1, 1, 0, 1, 0, mem[0]),
        mp(("1g." + g1 + "+me").c_str(), 20, 1, 1, kStarts1, sm[0], 1, 1, 0, 1, 1, mem[0]),
        mp(("1g." + g2).c_str(), 15, 1, 2, kStarts2Small, sm[1], 1, 1, 0, 1, 0, mem[1]),
        mp(("2g." + g2).c_str(), 14, 2, 2, kStarts2, sm[2], 2, 2, 0, 2, 0, mem[1]),
        mp(("3g." + g4).c_str(), 9, 3, 4, kStarts4, sm[3], 3, 3, 0, 3, 0, mem[2]),
        mp(("4g." + g4).c_str(), 5, 4, 4, kStarts0, sm[4], 4, 4, 0, 4, 0, mem[2]),
        mp(("7g." + g8).c_str(), 0, 7, 8, kStarts0, sm[5], 8, 7, 0, 7, 1, mem[3]),
    };
}

std::vector<MigProfile> ampereProfiles(const std::string& g1, const std::string& g2, const std::string& g4,
    const std::string& g8, const int64_t mem[4])
{
    return {
        mp(("1g." + g1).c_str(), 19, 1, 1, kStarts1, 14, 1, 0, 0, 0, 0, mem[0]),
        mp(("1g." + g1 + "+me").c_str(), 20, 1, 1, kStarts1, 14, 1, 1, 0, 1, 1, mem[0]),
        mp(("1g." + g2).c_str(), 15, 1, 2, kStarts2Small, 14, 1, 1, 0, 0, 0, mem[1]),
        mp(("2g." + g2).c_str(), 14, 2, 2, kStarts2, 28, 2, 1, 0, 0, 0, mem[1]),
        mp(("3g." + g4).c_str(), 9, 3, 4, kStarts4, 42, 3, 2, 0, 0, 0, mem[2]),
        mp(("4g." + g4).c_str(), 5, 4, 4, kStarts0, 56, 4, 2, 0, 0, 0, mem[2]),
        mp(("7g." + g8).c_str(), 0, 7, 8, kStarts0, 98, 7, 5, 0, 1, 1, mem[3]),
    };
}

DeviceModel nvidiaGpu(const char* id, const char* product, const char* arch, const char* cc,
    const char* pciDev, int64_t memMiB, int watts)
{
    DeviceModel m;
    m.id = id;
    m.kind = ComponentKind::Gpu;
    m.vendorDriver = "nvidia";
    m.productName = product;
    m.brand = "Nvidia";
    m.architecture = arch;
    m.computeCapability = cc;
    m.pciVendorId = "0x10de";
    m.pciDeviceId = pciDev;
    m.memory = Quantity::fromInt(memMiB * 1024 * 1024, Quantity::Format::BinarySI);
    m.powerWatts = watts;
    return m;
}

DeviceModel nic(const char* id, const char* vendor, const char* dev, const char* pciName, int gbps, bool rdma,
    const char* encap)
{
    DeviceModel m;
    m.id = id;
    m.kind = ComponentKind::Nic;
    m.vendorDriver = "dranet";
    m.productName = pciName;
    m.pciVendorId = vendor;
    m.pciDeviceId = dev;
    m.pciDeviceName = pciName;
    m.speedGbps = gbps;
    m.rdma = rdma;
    m.encapsulation = encap;
    m.powerWatts = 25;
    return m;
}

// NVIDIA data-center GPUs, with their MIG profiles where they have them.
void addNvidiaGpus(std::vector<DeviceModel>& t)
{

    {
        const int64_t mem[4] = { 4864, 9856, 19968, 40192 };
        auto m
            = nvidiaGpu("A100-SXM4-40GB", "NVIDIA A100-SXM4-40GB", "Ampere", "8.0.0", "0x20b0", 40960, 400);
        m.migMemorySlices = 8;
        m.migProfiles = ampereProfiles("5gb", "10gb", "20gb", "40gb", mem);
        t.push_back(m);
    }
    {
        const int64_t mem[4] = { 9728, 19968, 40192, 81152 };
        auto m
            = nvidiaGpu("A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB", "Ampere", "8.0.0", "0x20b2", 81920, 400);
        m.migMemorySlices = 8;
        m.migProfiles = ampereProfiles("10gb", "20gb", "40gb", "80gb", mem);
        t.push_back(m);
        m.id = "A100-PCIE-80GB";
        m.productName = "NVIDIA A100 80GB PCIe";
        m.pciDeviceId = "0x20b5";
        m.powerWatts = 300;
        t.push_back(m);
    }
    {
        const int64_t mem[4] = { 9984, 20096, 40448, 81536 };
        const int sm[6] = { 16, 26, 32, 60, 64, 132 };
        auto m
            = nvidiaGpu("H100-SXM5-80GB", "NVIDIA H100 80GB HBM3", "Hopper", "9.0.0", "0x2330", 81559, 700);
        m.migMemorySlices = 8;
        m.migProfiles = hopperProfiles("10gb", "20gb", "40gb", "80gb", mem, sm);
        t.push_back(m);
    }
    {
        const int64_t mem[4] = { 17152, 33536, 72064, 143744 };
        const int sm[6] = { 16, 26, 32, 60, 64, 132 };
        auto m = nvidiaGpu("H200-SXM5-141GB", "NVIDIA H200", "Hopper", "9.0.0", "0x2335", 143771, 700);
        m.migMemorySlices = 8;
        m.migProfiles = hopperProfiles("18gb", "35gb", "71gb", "141gb", mem, sm);
        t.push_back(m);
    }
    {
        // B200: 148 SMs on the die, MIG hands out 18 per compute slice (7g = 7 x 18 + 18 spare
        // rounded as the guide lists 1g..7g; values approximate, see header comment).
        const int64_t mem[4] = { 23296, 45824, 91904, 182784 };
        const int sm[6] = { 18, 18, 36, 54, 72, 144 };
        auto m = nvidiaGpu("B200-SXM-180GB", "NVIDIA B200", "Blackwell", "10.0.0", "0x2901", 183359, 1000);
        m.migMemorySlices = 8;
        m.migProfiles = hopperProfiles("23gb", "45gb", "90gb", "180gb", mem, sm);
        t.push_back(m);
    }
    {
        const int64_t mem[4] = { 23552, 47104, 94208, 189440 };
        const int sm[6] = { 18, 18, 36, 54, 72, 144 };
        auto m = nvidiaGpu("GB200-186GB", "NVIDIA GB200", "Blackwell", "10.0.0", "0x2941", 189471, 1200);
        m.migMemorySlices = 8;
        m.migProfiles = hopperProfiles("24gb", "47gb", "93gb", "186gb", mem, sm);
        t.push_back(m);
    }
    t.push_back(nvidiaGpu("L40S", "NVIDIA L40S", "Ada Lovelace", "8.9.0", "0x26b9", 46068, 350));
}

// Other accelerators (AMD, Intel Gaudi, FPGAs and the like).
void addOtherAccelerators(std::vector<DeviceModel>& t)
{
    {
        DeviceModel m;
        m.id = "MI300X";
        m.kind = ComponentKind::Gpu;
        m.vendorDriver = "amd";
        m.productName = "AMD_Instinct_MI300X_OAM";
        m.architecture = "CDNA3";
        m.pciVendorId = "0x1002";
        m.pciDeviceId = "0x74a1";
        m.memory = Quantity::fromInt(int64_t(196592) * 1024 * 1024, Quantity::Format::BinarySI);
        m.computeUnits = 304;
        m.simdUnits = 1216;
        m.powerWatts = 750;
        t.push_back(m);
    }
    {
        DeviceModel m;
        m.id = "Gaudi3";
        m.kind = ComponentKind::Accelerator;
        m.vendorDriver = "gaudi";
        m.productName = "Gaudi3";
        m.pciVendorId = "0x1da3";
        m.pciDeviceId = "0x1060";
        m.memory = Quantity::fromInt(int64_t(128) * 1024 * 1024 * 1024, Quantity::Format::BinarySI);
        m.powerWatts = 900;
        t.push_back(m);
    }
    {
        DeviceModel m;
        m.id = "Max-1550";
        m.kind = ComponentKind::Gpu;
        m.vendorDriver = "intel-gpu";
        m.productName = "Max 1550";
        m.brand = "Data Center Max";
        m.pciVendorId = "0x8086";
        m.pciDeviceId = "0x0bd5";
        m.memory = Quantity::fromInt(int64_t(131072) * 1024 * 1024, Quantity::Format::BinarySI);
        m.powerWatts = 600;
        t.push_back(m);
    }
    {
        DeviceModel m;
        m.id = "example-gpu";
        m.kind = ComponentKind::Gpu;
        m.vendorDriver = "example";
        m.productName = "LATEST-GPU-MODEL";
        m.memory = Quantity::fromInt(int64_t(80) * 1024 * 1024 * 1024, Quantity::Format::BinarySI);
        t.push_back(m);
    }
    {
        DeviceModel m;
        m.id = "Alveo-U55C";
        m.kind = ComponentKind::Fpga;
        m.vendorDriver = "fpga";
        m.productName = "Alveo U55C";
        m.board = "Alveo U55C";
        m.shell = "xilinx_u55c_gen3x16_xdma_base_3";
        m.pciVendorId = "0x10ee";
        m.pciDeviceId = "0x505c";
        m.memory = Quantity::fromInt(int64_t(16) * 1024 * 1024 * 1024, Quantity::Format::BinarySI);
        m.powerWatts = 150;
        t.push_back(m);
        m.id = "Alveo-U250";
        m.productName = m.board = "Alveo U250";
        m.shell = "xilinx_u250_gen3x16_xdma_shell_4_1";
        m.pciDeviceId = "0x5004";
        m.memory = Quantity::fromInt(int64_t(64) * 1024 * 1024 * 1024, Quantity::Format::BinarySI);
        m.powerWatts = 225;
        t.push_back(m);
    }
}

// RDMA and Ethernet NICs, and other PCIe devices.
void addNicsAndOthers(std::vector<DeviceModel>& t)
{
    t.push_back(
        nic("ConnectX-7-IB", "0x15b3", "0x1021", "MT2910 Family [ConnectX-7]", 400, true, "infiniband"));
    t.push_back(nic("ConnectX-7-ETH", "0x15b3", "0x1021", "MT2910 Family [ConnectX-7]", 400, true, "ether"));
    t.push_back(
        nic("ConnectX-6-IB", "0x15b3", "0x101b", "MT28908 Family [ConnectX-6]", 200, true, "infiniband"));
    t.push_back(
        nic("ConnectX-6-Dx", "0x15b3", "0x101d", "MT2892 Family [ConnectX-6 Dx]", 100, true, "ether"));
    t.push_back(nic("BlueField-3", "0x15b3", "0xa2dc",
        "MT43244 BlueField-3 integrated ConnectX-7 network controller", 400, true, "ether"));
    t.push_back(nic("Thor2-400G", "0x14e4", "0x1760", "BCM57608 10Gb/25Gb/50Gb/100Gb/200Gb/400Gb Ethernet",
        400, true, "ether"));
    t.push_back(nic("E810-C", "0x8086", "0x1592", "Ethernet Controller E810-C for QSFP", 100, true, "ether"));
    t.push_back(
        nic("X710", "0x8086", "0x1572", "Ethernet Controller X710 for 10GbE SFP+", 10, false, "ether"));

    {
        DeviceModel m;
        m.id = "NVMe";
        m.kind = ComponentKind::Other;
        m.vendorDriver = "none";
        m.productName = "NVMe SSD";
        t.push_back(m);
    }
}

std::vector<DeviceModel> buildTable()
{
    std::vector<DeviceModel> t;
    addNvidiaGpus(t);
    addOtherAccelerators(t);
    addNicsAndOthers(t);
    std::sort(t.begin(), t.end(), [](const DeviceModel& a, const DeviceModel& b) { return a.id < b.id; });
    return t;
}

} // namespace

const std::vector<DeviceModel>& builtinModels()
{
    static const std::vector<DeviceModel> table = buildTable();
    return table;
}

const DeviceModel* findBuiltinModel(const std::string& id)
{
    const auto& t = builtinModels();
    auto it = std::lower_bound(
        t.begin(), t.end(), id, [](const DeviceModel& m, const std::string& k) { return m.id < k; });
    return it != t.end() && it->id == id ? &*it : nullptr;
}

std::string draDriverName(const std::string& vendorDriver)
{
    if (vendorDriver == "nvidia")
        return "gpu.nvidia.com";
    if (vendorDriver == "amd")
        return "gpu.amd.com";
    if (vendorDriver == "intel-gpu")
        return "gpu.intel.com";
    if (vendorDriver == "gaudi")
        return "gaudi.intel.com";
    if (vendorDriver == "dranet")
        return "dra.net";
    if (vendorDriver == "example")
        return "gpu.example.com";
    // No upstream FPGA DRA driver exists (real-world.md §7): a neutral example name.
    if (vendorDriver == "fpga")
        return "fpga.example.com";
    return {};
}

} // namespace drasim::topology
