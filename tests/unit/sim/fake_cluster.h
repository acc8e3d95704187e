// SPDX-License-Identifier: Apache-2.0
#pragma once

// A tiny ClusterPort for engine tests: every device is a "gpu" of driver gpu.example.com, a pod
// asks for annotation fake/gpus devices (default 1), nodes are tried in name order, and devices in
// slice order. Enough to test queueing, completion, eviction and failures without the real
// scheduler, so a bug there cannot hide or fake one here.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/sim/cluster_port.h"

namespace drasim::sim::testing {

class FakeCluster : public ClusterPort
{
public:
    struct Dev
    {
        std::string driver;
        std::string pool;
        std::string name;
        std::string holder; ///< pod key
        bool noSchedule = false;
        bool noExecute = false;
    };
    std::map<std::string, std::vector<Dev>> nodes;
    uint64_t generation = 0;
    int scheduleCalls = 0;
    std::vector<std::string> finished;

    void setTime(double) override { }

    void addNode(const api::Node& node, const std::vector<api::ResourceSlice>& slices) override
    {
        auto& devs = nodes[node.meta.name];
        devs.clear();
        for (const auto& s : slices)
            for (const auto& d : s.devices)
                devs.push_back(Dev { s.driver, s.pool.name, d.name, {}, false, false });
        ++generation;
    }

    std::vector<std::string> removeNode(const std::string& name) override
    {
        std::vector<std::string> out;
        auto it = nodes.find(name);
        if (it == nodes.end())
            return out;
        std::set<std::string> holders;
        for (const auto& d : it->second)
            if (!d.holder.empty())
                holders.insert(d.holder);
        nodes.erase(it);
        ++generation;
        return { holders.begin(), holders.end() };
    }

    BindOutcome schedule(const api::Pod& pod) override
    {
        ++scheduleCalls;
        int want = 1;
        auto a = pod.meta.annotations.find("fake/gpus");
        if (a != pod.meta.annotations.end())
            want = std::stoi(a->second);
        for (auto& [name, devs] : nodes) {
            std::vector<size_t> free;
            for (size_t i = 0; i < devs.size() && int(free.size()) < want; ++i)
                if (devs[i].holder.empty() && !devs[i].noSchedule && !devs[i].noExecute)
                    free.push_back(i);
            if (int(free.size()) < want)
                continue;
            BindOutcome out;
            out.scheduled = true;
            out.nodeName = name;
            std::string claim = pod.meta.key() + "-gpu";
            out.claims.push_back(claim);
            for (size_t i : free) {
                devs[i].holder = pod.meta.key();
                out.allocated.push_back(
                    HeldDevice { claim, devs[i].driver, devs[i].pool, devs[i].name, "gpu" });
            }
            if (want > 1)
                out.placements.push_back("NV");
            return out;
        }
        BindOutcome out;
        out.message = "0/" + std::to_string(nodes.size())
            + " nodes are available: " + std::to_string(nodes.size()) + " cannot allocate all claims.";
        return out;
    }

    void podFinished(const std::string& key) override
    {
        finished.push_back(key);
        for (auto& [name, devs] : nodes)
            for (auto& d : devs)
                if (d.holder == key)
                    d.holder.clear();
        ++generation;
    }

    std::vector<std::string> setDeviceTaint(const std::string& driver, const std::string& pool,
        const std::string& device, const api::DeviceTaint& taint) override
    {
        std::vector<std::string> out;
        for (auto& [name, devs] : nodes)
            for (auto& d : devs)
                if (d.driver == driver && d.pool == pool && d.name == device) {
                    if (taint.effect == "NoExecute") {
                        d.noExecute = true;
                        if (!d.holder.empty())
                            out.push_back(d.holder);
                    } else {
                        d.noSchedule = true;
                    }
                }
        return out;
    }

    void removeDeviceTaint(const std::string& driver, const std::string& pool, const std::string& device,
        const std::string&) override
    {
        for (auto& [name, devs] : nodes)
            for (auto& d : devs)
                if (d.driver == driver && d.pool == pool && d.name == device)
                    d.noSchedule = d.noExecute = false;
        ++generation;
    }

    uint64_t capacityGeneration() const override { return generation; }
};

} // namespace drasim::sim::testing
