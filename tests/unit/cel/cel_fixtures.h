// SPDX-License-Identifier: Apache-2.0
#pragma once

// Device fixtures shared by the CEL tests and described in cases/device.cases.

#include <map>
#include <string>

#include "core/api/resource_v1.h"
#include "core/cel/cel.h"

namespace drasim::cel::testing {

struct DeviceFixture
{
    std::string driver;
    std::map<std::string, api::DeviceAttribute> attributes;
    std::map<std::string, api::DeviceCapacity> capacity;
    bool allowMultipleAllocations = false;

    DeviceView view() const { return { driver, &attributes, &capacity, allowMultipleAllocations }; }
};

inline api::DeviceAttribute stringAttr(std::string v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = std::move(v);
    return a;
}

inline api::DeviceAttribute intAttr(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

inline api::DeviceAttribute boolAttr(bool v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Bool;
    a.boolValue = v;
    return a;
}

inline api::DeviceAttribute versionAttr(std::string v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Version;
    a.stringValue = std::move(v);
    return a;
}

inline api::DeviceCapacity capacity(const char* q)
{
    api::DeviceCapacity c;
    c.value = *Quantity::parse(q);
    return c;
}

inline DeviceFixture gpuDevice()
{
    DeviceFixture d;
    d.driver = "gpu.nvidia.com";
    d.attributes["productName"] = stringAttr("NVIDIA H100 80GB HBM3");
    d.attributes["driverVersion"] = versionAttr("550.54.15");
    d.attributes["index"] = intAttr(3);
    d.attributes["gpu.nvidia.com/architecture"] = stringAttr("Hopper");
    d.attributes["numa.example.org/node"] = intAttr(1);
    d.attributes["migCapable"] = boolAttr(true);
    d.attributes["spare"] = boolAttr(false);
    d.capacity["memory"] = capacity("80Gi");
    d.capacity["gpu.nvidia.com/cores"] = capacity("132");
    d.capacity["power.example.org/watts"] = capacity("700");
    d.capacity["fraction"] = capacity("1.5Gi");
    d.allowMultipleAllocations = true;
    return d;
}

inline DeviceFixture dranetDevice()
{
    DeviceFixture d;
    d.driver = "dra.net";
    d.attributes["ifName"] = stringAttr("eth1");
    d.attributes["ipv4"] = stringAttr("10.4.0.12");
    d.attributes["mtu"] = intAttr(9001);
    d.attributes["rdma"] = boolAttr(true);
    d.attributes["pciDevice"] = stringAttr("MT2910 Family [ConnectX-7]");
    d.attributes["resource.kubernetes.io/pcieRoot"] = stringAttr("pci0000:10");
    return d;
}

inline DeviceFixture plainDevice()
{
    DeviceFixture d;
    d.driver = "dra.example.com";
    return d;
}

} // namespace drasim::cel::testing
