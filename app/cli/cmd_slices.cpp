// SPDX-License-Identifier: Apache-2.0
// drasim slices: the Nodes and ResourceSlices real DRA drivers publish for N nodes of a shape.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "core/topology/catalog.h"
#include "core/topology/cluster_builder.h"
#include "core/topology/importers.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

namespace {

const char* const kUsage
    = R"(Usage: drasim slices SHAPE|FILE [--nodes N] [--prefix NAME] [--mig none|static|dynamic]
                      [--mig-layout P1,P2,...] [--nvidia-release 25.3|25.8|25.12]
                      [--numa-attribute] [--no-nodes] [--with-classes] [-o yaml|json]
                      [--catalog DIR] [--memory QUANTITY]

Prints, as one `kind: List`, the Node objects and the ResourceSlices that the real drivers publish
for N nodes of a server shape: gpu.nvidia.com (full GPUs, static MIG devices, or DynamicMIG
partitions with counter sets), gpu.amd.com, gaudi.intel.com, gpu.intel.com, dra.net NICs,
gpu.example.com and fpga.example.com, with resource.kubernetes.io/pcieRoot and pciBusID.
Nodes are named NAME-0 ... NAME-(N-1); pools are named after their node.

SHAPE is a catalog name (drasim topo --list); FILE a NodeShape YAML, nvidia-smi or hwloc file.

Options:
  --nodes N              how many nodes (default 1)
  --prefix NAME          node name prefix (default: the shape name)
  --mig MODE             NVIDIA MIG mode, overriding the shape: none, static or dynamic
  --mig-layout LIST      static MIG layout for every GPU without its own, e.g. 3g.40gb,2g.20gb,1g.10gb
  --nvidia-release R     NVIDIA driver attribute vocabulary (default 25.12)
  --numa-attribute       also publish resource.kubernetes.io/numaNode (KEP-6072 drivers)
  --no-nodes             print only the ResourceSlices
  --with-classes         also print the drivers' real DeviceClasses (catalog deviceclasses/) for
                         every driver that publishes devices here
  -o yaml|json           output format (default yaml)
  --catalog DIR          use DIR as the hardware catalog
  --memory QUANTITY      the server's memory for an nvidia-smi capture, which has none (e.g. 2Ti);
                         without it the Nodes publish no memory

Exit status: 0 on success, 1 on invalid input (diagnostics on stderr), 2 on bad usage.
)";

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

int run(const std::vector<std::string>& args)
{
    using namespace drasim;
    std::string target, catalogDir, prefix, output = "yaml";
    long nodes = 1;
    bool withNodes = true;
    bool withClasses = false;
    topology::GenerateOptions gen;
    topology::ImportOptions importOptions;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> const std::string* {
            if (i + 1 >= args.size()) {
                cli::printError(std::string("option ") + name + " needs a value");
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "--nodes") {
            auto v = value("--nodes");
            if (!v)
                return 2;
            char* end = nullptr;
            nodes = std::strtol(v->c_str(), &end, 10);
            if (v->empty() || *end != '\0' || nodes < 1 || nodes > 1000000) {
                cli::printError("--nodes must be a whole number between 1 and 1000000, not \"" + *v + "\"");
                return 2;
            }
        } else if (a == "--prefix") {
            auto v = value("--prefix");
            if (!v)
                return 2;
            prefix = *v;
        } else if (a == "--mig") {
            auto v = value("--mig");
            if (!v)
                return 2;
            if (*v == "none")
                gen.mig = topology::MigMode::None;
            else if (*v == "static")
                gen.mig = topology::MigMode::Static;
            else if (*v == "dynamic")
                gen.mig = topology::MigMode::Dynamic;
            else {
                cli::printError("--mig must be none, static or dynamic, not \"" + *v + "\"");
                return 2;
            }
        } else if (a == "--mig-layout") {
            auto v = value("--mig-layout");
            if (!v)
                return 2;
            gen.migLayout = splitComma(*v);
            if (!gen.mig)
                gen.mig = topology::MigMode::Static;
        } else if (a == "--nvidia-release") {
            auto v = value("--nvidia-release");
            if (!v)
                return 2;
            if (*v != "25.3" && *v != "25.8" && *v != "25.12") {
                cli::printError("--nvidia-release must be 25.3, 25.8 or 25.12, not \"" + *v + "\"");
                return 2;
            }
            gen.nvidiaRelease = *v;
        } else if (a == "--numa-attribute") {
            gen.standardNumaNode = true;
        } else if (a == "--no-nodes") {
            withNodes = false;
        } else if (a == "--with-classes") {
            withClasses = true;
        } else if (a == "-o" || a == "--output") {
            auto v = value("-o");
            if (!v)
                return 2;
            if (*v != "yaml" && *v != "json") {
                cli::printError("-o must be yaml or json, not \"" + *v + "\"");
                return 2;
            }
            output = *v;
        } else if (a == "--catalog") {
            auto v = value("--catalog");
            if (!v)
                return 2;
            catalogDir = *v;
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
            cli::printError("unknown option " + a + " (see 'drasim slices --help')");
            return 2;
        } else if (target.empty()) {
            target = a;
        } else {
            cli::printError("only one SHAPE or FILE may be given (see 'drasim slices --help')");
            return 2;
        }
    }
    if (target.empty()) {
        cli::printError("missing SHAPE or FILE (see 'drasim slices --help')");
        return 2;
    }
    Diagnostics diags;
    auto shapes = topology::resolveShapeArgument(target, catalogDir, importOptions, diags);
    if (!diags.hasErrors() && shapes.size() != 1) {
        cli::printError(target
            + (shapes.empty() ? ": no NodeShape document found"
                              : ": holds several NodeShapes; give a file with one"));
        return 1;
    }
    topology::ClusterBuilder builder;
    if (!diags.hasErrors())
        builder.addPool(shapes[0], int(nodes), prefix, gen, &diags);
    if (diags.hasErrors()) {
        std::fputs(diags.formatAll().c_str(), stderr);
        return 1;
    }
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr); // warnings only at this point
    api::ObjectSet objects = builder.build();
    if (!withNodes)
        objects.nodes.clear();
    if (withClasses) {
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
    cli::printStdout(output == "json" ? yamlio::toJsonList(objects) : yamlio::toYamlList(objects));
    return 0;
}

const bool registered = drasim::cli::registerCommand({ "slices",
    "generate the Nodes and ResourceSlices real DRA drivers publish for a server shape", kUsage, run });

} // namespace
