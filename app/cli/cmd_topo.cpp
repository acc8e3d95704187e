// SPDX-License-Identifier: Apache-2.0
// drasim topo: the hardware topology of a catalog shape, a NodeShape file, an `nvidia-smi topo -m`
// capture or an hwloc XML file, as a tree and an nvidia-smi-style distance matrix.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "core/topology/catalog.h"
#include "core/topology/importers.h"
#include "core/topology/shape_writer.h"
#include "core/topology/topo_render.h"
#include "core/topology/topology.h"

namespace {
namespace cmd_topo {

struct Args
{
    std::string target, catalogDir, view = "all";
    drasim::topology::ImportOptions importOptions;
    bool list = false;
};

int run(const Args& args)
{
    using namespace drasim;
    const std::string& target = args.target;
    const std::string& catalogDir = args.catalogDir;
    const std::string& view = args.view;
    Diagnostics diags;
    if (args.list) {
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
    auto shapes = topology::resolveShapeArgument(target, catalogDir, args.importOptions, diags);
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

drasim::cli::Runner define(CLI::App& app)
{
    auto args = std::make_shared<Args>();
    app.description(
        R"(Shows a server's topology: sockets, NUMA nodes and the PCIe tree (root complexes, switches,
devices), accelerator fabrics (NVLink/NVSwitch, xGMI, ...), then the device distance matrix in
the vocabulary of `nvidia-smi topo -m` (X, NV#, PIX, PXB, PHB, NODE, SYS) with CPU and NUMA
affinity.

SHAPE is a catalog name (see --list), found in $DRASIM_HARDWARE_DIR, in the installed catalog
(<prefix>/share/drasim/resources/hardware) or under resources/hardware/ of the source tree. FILE is a NodeShape YAML file, the
text output of `nvidia-smi topo -m`, or hwloc XML (`lstopo --of xml`); the format is detected
from the content.)");
    app.footer("Exit status: 0 on success, 1 on invalid input (diagnostics on stderr), 2 on bad usage.");
    CLI::Option* target = app.add_option("SHAPE|FILE", args->target, "the server to show (not with --list)");
    CLI::Option* tree = app.add_flag_callback(
        "--tree", [args] { args->view = "tree"; },
        "only the tree view (--tree, --matrix and --yaml exclude each other)");
    CLI::Option* matrix = app.add_flag_callback(
        "--matrix", [args] { args->view = "matrix"; }, "only the distance matrix");
    CLI::Option* yaml = app.add_flag_callback(
        "--yaml", [args] { args->view = "yaml"; },
        "print the shape as a NodeShape document (e.g. to add an import to the catalog)");
    tree->excludes(matrix)->excludes(yaml);
    matrix->excludes(yaml);
    app.add_option("--catalog", args->catalogDir, "use DIR as the hardware catalog")->option_text("DIR");
    CLI::Option* list
        = app.add_flag("--list", args->list, "list the catalog: name, price per hour, description");
    list->excludes(target);
    app.callback([target, list] {
        if (target->count() == 0 && list->count() == 0)
            throw CLI::ValidationError("SHAPE|FILE is required (or --list)");
    });
    drasim::cli::addImportOptions(app, args->importOptions);
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "topo", "show a server's PCIe/NUMA/NVLink topology and nvidia-smi-style distances", define });

} // namespace cmd_topo
} // namespace
