// SPDX-License-Identifier: Apache-2.0
#include "core/topology/hwloc_nvlink.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <vector>

namespace drasim::topology::hwloc {

namespace {

using xml::Element;

// "OSDev:332 Package:3" (hetero) or "332 333" (homogeneous, indexing="gp"): the gp_index of each.
std::vector<std::string> gpIndexes(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string tok;
    while (in >> tok) {
        const size_t colon = tok.find(':');
        if (colon != std::string::npos)
            tok = tok.substr(colon + 1);
        else if (!tok.empty() && !std::isdigit(static_cast<unsigned char>(tok[0])))
            continue; // a type name written apart from its index
        out.push_back(tok);
    }
    return out;
}

std::vector<uint64_t> values(const Element& distances)
{
    std::vector<uint64_t> out;
    for (const auto& c : distances.children) {
        if (c->name != "u64values")
            continue;
        std::istringstream in(c->text);
        uint64_t v = 0;
        while (in >> v)
            out.push_back(v);
    }
    return out;
}

// hwloc adds 20000, 25000 or 50000 MB/s per link by NVLink version, which the XML does not
// keep; the GPU generation tells it, and a value that does not divide picks another.
uint64_t perLinkBandwidth(const std::vector<std::string>& modelNames, const std::vector<uint64_t>& bws)
{
    uint64_t guess = 50000;
    for (const auto& m : modelNames) {
        if (m.find("P100") != std::string::npos)
            guess = 20000;
        else if (m.find("V100") != std::string::npos)
            guess = 25000;
    }
    for (uint64_t candidate : { guess, uint64_t(50000), uint64_t(25000), uint64_t(20000) })
        if (std::all_of(bws.begin(), bws.end(), [&](uint64_t b) { return b % candidate == 0; }))
            return candidate;
    return guess;
}

} // namespace

void addNvlinkFabrics(const Element& root, const NvlinkObjects& objects, NodeShape& shape, const WarnAt& warn)
{
    for (const auto& d : root.children) {
        if ((d->name != "distances2" && d->name != "distances2hetero") || !d->attr("name")
            || *d->attr("name") != "NVLinkBandwidth")
            continue;
        // hwloc splits long lists over several <indexes> and <u64values> elements.
        std::vector<std::string> idx;
        for (const auto& c : d->children)
            if (c->name == "indexes")
                for (auto& i : gpIndexes(c->text))
                    idx.push_back(std::move(i));
        const auto bw = values(*d);
        const size_t n = idx.size();
        if (n == 0 || bw.size() != n * n) {
            warn(*d, "distances2.NVLinkBandwidth",
                "NVLink matrix has " + std::to_string(bw.size()) + " values for " + std::to_string(n)
                    + " objects; NVLink ignored");
            continue;
        }
        std::vector<std::string> gpu(n); // component name, empty for non-GPU objects
        std::vector<bool> nvswitch(n, false);
        std::vector<std::string> models;
        std::vector<uint64_t> linkValues;
        for (size_t i = 0; i < n; ++i) {
            if (auto it = objects.gpuByGpIndex.find(idx[i]); it != objects.gpuByGpIndex.end()) {
                gpu[i] = it->second;
                if (auto m = objects.gpuModelName.find(gpu[i]); m != objects.gpuModelName.end())
                    models.push_back(m->second);
            }
            nvswitch[i] = objects.nvswitchGpIndex.count(idx[i]) > 0;
        }
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                if (i != j && !gpu[i].empty() && (!gpu[j].empty() || nvswitch[j]) && bw[i * n + j] > 0)
                    linkValues.push_back(bw[i * n + j]);
        const uint64_t perLink = perLinkBandwidth(models, linkValues);
        auto links = [&](uint64_t b) { return std::max<int>(1, int((b + perLink / 2) / perLink)); };

        Fabric pairs;
        pairs.name = "nvlink";
        pairs.switched = false;
        std::map<std::string, int> switchLinks; // GPU → links to NVSwitches
        for (size_t i = 0; i < n; ++i) {
            if (gpu[i].empty())
                continue;
            for (size_t j = 0; j < n; ++j) {
                const uint64_t b = bw[i * n + j];
                if (i == j || b == 0)
                    continue;
                if (nvswitch[j])
                    switchLinks[gpu[i]] += links(b);
                if (j > i && !gpu[j].empty())
                    pairs.pairs.push_back({ shape.find(gpu[i]), shape.find(gpu[j]), links(b) });
            }
        }
        for (const auto& p : pairs.pairs)
            for (int m : { p.a, p.b })
                if (std::find(pairs.members.begin(), pairs.members.end(), m) == pairs.members.end())
                    pairs.members.push_back(m);
        if (!pairs.pairs.empty())
            shape.fabrics.push_back(pairs);
        if (!switchLinks.empty()) {
            Fabric sw;
            sw.name = "nvswitch";
            sw.switched = true;
            sw.linksPerDevice = switchLinks.begin()->second;
            for (const auto& [name, count] : switchLinks) {
                sw.members.push_back(shape.find(name));
                sw.linksPerDevice = std::min(sw.linksPerDevice, count);
            }
            std::sort(sw.members.begin(), sw.members.end());
            shape.fabrics.push_back(sw);
        }
    }
}

} // namespace drasim::topology::hwloc
