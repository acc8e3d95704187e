// SPDX-License-Identifier: Apache-2.0
// drasim slices: the Nodes and ResourceSlices real DRA drivers publish for N nodes of a shape.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/topology/catalog.h"
#include "core/topology/cluster_builder.h"
#include "core/topology/importers.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

namespace {
namespace cmd_slices {

/// "a,,b" → {a, b}: empty items are dropped.
std::vector<std::string> splitComma(const std::string& s)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i <= s.size()) {
        size_t j = s.find(',', i);
        if (j == std::string::npos)
            j = s.size();
        if (j > i)
            out.push_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

struct Args
{
    std::string target, catalogDir, prefix, output = "yaml";
    int nodes = 1;
    bool withNodes = true;
    bool withClasses = false;
    std::string mig, migLayout;
    drasim::topology::GenerateOptions gen;
    drasim::topology::ImportOptions importOptions;
    drasim::topology::RackLayout layout;
};

/// Reports why the nodes cannot stand in racks as --nodes-per-rack / --racks-per-block say.
bool layoutRefused(const drasim::topology::NodeShape& shape, const Args& args)
{
    const std::string why = drasim::topology::rackLayoutError(
        shape, args.layout, args.prefix.empty() ? shape.name : args.prefix, args.nodes);
    if (!why.empty())
        drasim::cli::printError(why);
    return !why.empty();
}

int run(const Args& args)
{
    using namespace drasim;
    const std::string& target = args.target;
    const std::string& catalogDir = args.catalogDir;
    Diagnostics diags;
    auto shapes = topology::resolveShapeArgument(target, catalogDir, args.importOptions, diags);
    if (!diags.hasErrors() && shapes.size() != 1) {
        cli::printError(target
            + (shapes.empty() ? ": no NodeShape document found"
                              : ": holds several NodeShapes; give a file with one"));
        return 1;
    }
    if (!diags.hasErrors() && layoutRefused(shapes[0], args))
        return 1;
    topology::ClusterBuilder builder;
    if (!diags.hasErrors())
        builder.addPool(shapes[0], args.nodes, args.prefix, args.gen, &diags, args.layout);
    if (diags.hasErrors()) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr); // warnings only at this point
    api::ObjectSet objects = builder.build();
    if (!args.withNodes)
        objects.nodes.clear();
    if (args.withClasses) {
        const std::string dir = catalogDir.empty() ? topology::Catalog::defaultDirectory() : catalogDir;
        auto loaded = yamlio::loadPaths({ dir + "/deviceclasses" });
        if (loaded.diagnostics.hasErrors()) {
            std::fputs(loaded.diagnostics.formatAll().c_str(), stderr);
            return 1;
        }
        // A class belongs to this output when one of its selectors names a driver we publish.
        std::set<std::string> drivers;
        for (const auto& s : objects.resourceSlices)
            drivers.insert(s.driver);
        for (auto& dc : loaded.objects.deviceClasses) {
            bool used = false;
            for (const auto& sel : dc.selectors)
                for (const auto& d : drivers)
                    used = used || sel.expression.find("'" + d + "'") != std::string::npos
                        || sel.expression.find("\"" + d + "\"") != std::string::npos;
            if (used)
                objects.deviceClasses.push_back(std::move(dc));
        }
    }
    cli::printStdout(args.output == "json" ? yamlio::toJsonList(objects) : yamlio::toYamlList(objects));
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Prints, as one `kind: List`, the Node objects and the ResourceSlices that the real drivers publish
for N nodes of a server shape: gpu.nvidia.com (full GPUs, static MIG devices, or DynamicMIG
partitions with counter sets), gpu.amd.com, gaudi.intel.com, gpu.intel.com, dra.net NICs,
gpu.example.com and fpga.example.com, with resource.kubernetes.io/pcieRoot and pciBusID.
Nodes are named NAME-0 ... NAME-(N-1); pools are named after their node. With --nodes-per-rack
consecutive nodes fill racks (label topology.kubernetes.io/rack: NAME-rack-R) and with
--racks-per-block consecutive racks fill blocks (topology.kubernetes.io/block: NAME-block-B);
GB200 NVL72 trays fill one rack per NVLink domain of 18 and carry its nvidia.com/gpu.clique.)");
    app.footer("Exit status: 0 on success, 1 on invalid input (diagnostics on stderr), 2 on bad usage.");
    app.add_option("SHAPE|FILE", args->target,
           "a catalog name (drasim topo --list), or a NodeShape YAML, nvidia-smi or hwloc file")
        ->required();
    app.add_option("--nodes", args->nodes, "how many nodes (default 1)")
        ->option_text("N")
        ->transform(wholeNumber(1, 1000000));
    app.add_option("--prefix", args->prefix, "node name prefix (default: the shape name)")
        ->option_text("NAME");
    app.add_option("--nodes-per-rack", args->layout.nodesPerRack,
           "nodes per rack (default: the shape's NVLink domain, else no rack labels)")
        ->option_text("M")
        ->transform(wholeNumber(1, 1000000));
    app.add_option(
           "--racks-per-block", args->layout.racksPerBlock, "racks per block (default: no block labels)")
        ->option_text("K")
        ->transform(wholeNumber(1, 1000000));
    app.add_option("--mig", args->mig, "NVIDIA MIG mode, overriding the shape: none, static or dynamic")
        ->option_text("MODE")
        ->transform(oneOf({ "none", "static", "dynamic" }));
    app.add_option("--mig-layout", args->migLayout,
           "static MIG layout for every GPU without its own, e.g. 3g.40gb,2g.20gb,1g.10gb\n"
           "(implies --mig static unless --mig is given)")
        ->option_text("LIST");
    app.add_option(
           "--nvidia-release", args->gen.nvidiaRelease, "NVIDIA driver attribute vocabulary (default 25.12)")
        ->option_text("R")
        ->transform(oneOf({ "25.3", "25.8", "25.12" }));
    app.add_flag("--numa-attribute", args->gen.standardNumaNode,
        "also publish resource.kubernetes.io/numaNode (KEP-6072 drivers)");
    app.add_flag_callback(
        "--no-nodes", [args] { args->withNodes = false; }, "print only the ResourceSlices");
    app.add_flag("--with-classes", args->withClasses,
        "also print the drivers' real DeviceClasses (catalog deviceclasses/) for every\n"
        "driver that publishes devices here");
    addOutputOption(app, args->output, { "yaml", "json" }, "output format (default yaml)");
    app.add_option("--catalog", args->catalogDir, "use DIR as the hardware catalog")->option_text("DIR");
    addImportOptions(app, args->importOptions);
    app.callback([args] {
        using drasim::topology::MigMode;
        args->gen.migLayout = splitComma(args->migLayout);
        if (!args->mig.empty())
            args->gen.mig = args->mig == "none" ? MigMode::None
                : args->mig == "static"         ? MigMode::Static
                                                : MigMode::Dynamic;
        else if (!args->gen.migLayout.empty())
            args->gen.mig = MigMode::Static;
    });
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand({ "slices",
    "generate the Nodes and ResourceSlices real DRA drivers publish for a server shape", define });

} // namespace cmd_slices
} // namespace
