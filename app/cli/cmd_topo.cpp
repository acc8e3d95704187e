// SPDX-License-Identifier: Apache-2.0
// drasim topo: the hardware topology of a catalog shape, a NodeShape file, an `nvidia-smi topo -m`
// capture or an hwloc XML file, as a tree and an nvidia-smi-style distance matrix.
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/topology/catalog.h"
#include "core/topology/importers.h"
#include "core/topology/shape_writer.h"
#include "core/topology/topo_render.h"
#include "core/topology/topology.h"

namespace {

const char* const kUsage = R"(Usage: drasim topo SHAPE|FILE [--tree | --matrix | --yaml] [--catalog DIR]
                    [--gpu-model MODEL] [--nic-model MODEL] [--memory QUANTITY]
       drasim topo --list [--catalog DIR]

Shows a server's topology: sockets, NUMA nodes and the PCIe tree (root complexes, switches,
devices), accelerator fabrics (NVLink/NVSwitch, xGMI, ...), then the device distance matrix in
the vocabulary of `nvidia-smi topo -m` (X, NV#, PIX, PXB, PHB, NODE, SYS) with CPU and NUMA
affinity.

SHAPE is a catalog name (see --list), found under resources/hardware/ of the source tree, in
$DRASIM_HARDWARE_DIR or in <prefix>/share/drasim/hardware. FILE is a NodeShape YAML file, the
text output of `nvidia-smi topo -m`, or hwloc XML (`lstopo --of xml`); the format is detected
from the content.

Options:
  --tree              only the tree view
  --matrix            only the distance matrix
  --yaml              print the shape as a NodeShape document (e.g. to add an import to the catalog)
  --catalog DIR       use DIR as the hardware catalog
  --gpu-model MODEL   device model for imported GPUs (e.g. H100-SXM5-80GB; default: generic)
  --nic-model MODEL   device model for imported NICs (e.g. ConnectX-7-IB; default: generic)
  --memory QUANTITY   the server's memory for an nvidia-smi capture, which has none (e.g. 2Ti);
                      without it the Node publishes no memory
  --list              list the catalog: name, price per hour, description

Exit status: 0 on success, 1 on invalid input (diagnostics on stderr), 2 on bad usage.
)";

int run(const std::vector<std::string>& args)
{
    using namespace drasim;
    std::string target, catalogDir, view = "all";
    topology::ImportOptions importOptions;
    bool list = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> const std::string* {
            if (i + 1 >= args.size()) {
                cli::printError(std::string("option ") + name + " needs a value");
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "--tree" || a == "--matrix" || a == "--yaml") {
            view = a.substr(2);
        } else if (a == "--list") {
            list = true;
        } else if (a == "--catalog") {
            auto v = value("--catalog");
            if (!v)
                return 2;
            catalogDir = *v;
        } else if (a == "--gpu-model") {
            auto v = value("--gpu-model");
            if (!v)
                return 2;
            importOptions.gpuModel = *v;
        } else if (a == "--nic-model") {
            auto v = value("--nic-model");
            if (!v)
                return 2;
            importOptions.nicModel = *v;
        } else if (a == "--memory") {
            auto v = value("--memory");
            if (!v)
                return 2;
            importOptions.memory = Quantity::parse(*v);
            if (!importOptions.memory || importOptions.memory->value() <= 0) {
                cli::printError("--memory must be a positive quantity such as 2Ti, not \"" + *v + "\"");
                return 2;
            }
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            cli::printError("unknown option " + a + " (see 'drasim topo --help')");
            return 2;
        } else if (target.empty()) {
            target = a;
        } else {
            cli::printError("only one SHAPE or FILE may be given (see 'drasim topo --help')");
            return 2;
        }
    }
    Diagnostics diags;
    if (list) {
        const std::string dir = catalogDir.empty() ? topology::Catalog::defaultDirectory() : catalogDir;
        auto catalog = topology::Catalog::load(dir.empty() ? std::string("resources/hardware") : dir, diags);
        if (diags.hasErrors()) {
            std::fputs(diags.formatAll().c_str(), stderr);
            return 1;
        }
        std::string out;
        for (const auto& s : catalog.shapes()) {
            char price[32];
            std::snprintf(price, sizeof price, "$%.2f/h", s.price.perHourUsd);
            std::string name = s.name;
            name.resize(std::max<size_t>(name.size() + 2, 20), ' ');
            std::string p = price;
            p.resize(std::max<size_t>(p.size() + 2, 12), ' ');
            out += name + p + s.description + "\n";
        }
        cli::printStdout(out);
        return 0;
    }
    if (target.empty()) {
        cli::printError("missing SHAPE or FILE (see 'drasim topo --help')");
        return 2;
    }
    auto shapes = topology::resolveShapeArgument(target, catalogDir, importOptions, diags);
    if (diags.hasErrors() || shapes.empty()) {
        if (!diags.hasErrors())
            cli::printError(target + ": no NodeShape document found");
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    // Warnings (e.g. an nvidia-smi matrix no PCIe tree reproduces exactly) go to stderr.
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    std::string out;
    for (size_t i = 0; i < shapes.size(); ++i) {
        if (view == "yaml") {
            out += (i ? "---\n" : "") + topology::shapeToYaml(shapes[i]);
            continue;
        }
        topology::Topology topo(shapes[i]);
        if (i > 0)
            out += "\n";
        if (view == "all" || view == "tree")
            out += topology::renderTree(topo);
        if (view == "all")
            out += "\n";
        if (view == "all" || view == "matrix")
            out += topology::renderMatrix(topo);
    }
    cli::printStdout(out);
    return 0;
}

const bool registered = drasim::cli::registerCommand(
    { "topo", "show a server's PCIe/NUMA/NVLink topology and nvidia-smi-style distances", kUsage, run });

} // namespace
