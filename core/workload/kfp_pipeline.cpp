// SPDX-License-Identifier: Apache-2.0
#include "core/workload/kfp_pipeline.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include "core/workload/arrival_process.h"
#include "core/workload/duration_sampler.h"
#include "core/workload/workload_spec_yaml.h"
#include "core/yamlio/doc_reader.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::workload {

using yamlio::joinPath;
using yamlio::YamlNode;

namespace {

constexpr const char* kPipelineKind = "Pipeline";

/// The document reader with lookups by key: KFP IR nests optional maps deeply, and most fields
/// are read where they are needed rather than in one field loop (the IR carries many fields the
/// simulator does not use, so unknown keys are not errors here).
class Ctx : public yamlio::DocReader
{
public:
    Ctx(std::string name, Diagnostics& diags)
        : DocReader(diags, kPipelineKind, std::move(name))
    { }

    /// parent[key] when it is a map; a missing required key or another type is reported.
    const YamlNode* map(const YamlNode& parent, const char* key, const std::string& field, bool required)
    {
        const YamlNode* n = parent.get(key);
        if (!n) {
            if (required)
                this->required(parent, joinPath(field, key));
            return nullptr;
        }
        return isMap(*n, joinPath(field, key)) ? n : nullptr;
    }
    std::optional<std::string> str(
        const YamlNode& parent, const char* key, const std::string& field, bool required)
    {
        const YamlNode* n = parent.get(key);
        if (!n) {
            if (required)
                this->required(parent, joinPath(field, key));
            return std::nullopt;
        }
        return string(*n, joinPath(field, key));
    }
    std::vector<std::string> strList(const YamlNode& parent, const char* key, const std::string& field)
    {
        std::vector<std::string> out;
        if (const YamlNode* n = parent.get(key))
            items(*n, joinPath(field, key), [&](const YamlNode& item, const std::string& ip) {
                if (auto s = string(item, ip))
                    out.push_back(*s);
            });
        return out;
    }
};

// One InputParameterSpec: componentInputParameter / runtimeValue.constant / taskOutputParameter.
std::optional<KfpValueRef> valueRef(const YamlNode& n, const std::string& field, Ctx& c)
{
    KfpValueRef ref;
    ref.pos = n.pos;
    if (!c.isMap(n, field))
        return std::nullopt;
    if (const YamlNode* p = n.get("componentInputParameter")) {
        auto s = p->asString();
        if (!s) {
            c.error(p->pos, joinPath(field, "componentInputParameter"), "expected a parameter name");
            return std::nullopt;
        }
        ref.kind = KfpValueRef::Kind::PipelineParameter;
        ref.parameter = *s;
        return ref;
    }
    if (const YamlNode* rv = n.get("runtimeValue")) {
        const YamlNode* k = rv->isMap() ? rv->get("constant") : nullptr;
        if (!k) {
            c.required(*rv, joinPath(field, "runtimeValue.constant"));
            return std::nullopt;
        }
        ref.kind = KfpValueRef::Kind::Constant;
        ref.constant = yamlToDataValue(*k);
        return ref;
    }
    if (const YamlNode* t = n.get("taskOutputParameter")) {
        const std::string f = joinPath(field, "taskOutputParameter");
        auto producer = t->isMap() ? c.str(*t, "producerTask", f, true) : std::nullopt;
        auto key = t->isMap() ? c.str(*t, "outputParameterKey", f, true) : std::nullopt;
        if (!producer || !key) {
            if (!t->isMap())
                c.error(t->pos, f, "expected {producerTask, outputParameterKey}");
            return std::nullopt;
        }
        ref.kind = KfpValueRef::Kind::TaskOutput;
        ref.producerTask = *producer;
        ref.outputKey = *key;
        return ref;
    }
    if (const YamlNode* t = n.get("taskFinalStatus")) {
        // Exit-handler input: only the dependency matters to the simulator.
        auto producer
            = t->isMap() ? c.str(*t, "producerTask", joinPath(field, "taskFinalStatus"), true) : std::nullopt;
        if (!producer)
            return std::nullopt;
        ref.kind = KfpValueRef::Kind::TaskOutput;
        ref.producerTask = *producer;
        ref.outputKey = "status";
        return ref;
    }
    c.error(n.pos, field,
        "unsupported input source; expected componentInputParameter, runtimeValue.constant or "
        "taskOutputParameter");
    return std::nullopt;
}

// toJson ends documents with a newline; values spliced into args and messages must not.
std::string compactJson(const DataValue& v)
{
    std::string s = toJson(v, 0);
    while (!s.empty() && s.back() == '\n')
        s.pop_back();
    return s;
}

std::string jsonText(const DataValue& v)
{
    return v.isString() ? v.asString() : compactJson(v);
}

// KFP writes resource quantities either as strings ("500m", "4Gi") or, in the older fields, as
// floats in cores and GB. The float forms become exact decimal strings.
std::string coresText(double cores)
{
    return std::to_string(std::llround(cores * 1000)) + "m";
}
std::string gbText(double gb)
{
    return std::to_string(std::llround(gb * 1e9));
}

void readResources(const YamlNode& res, const std::string& field, KfpTask& task, Ctx& c)
{
    auto text = [&](const char* key) -> std::optional<std::string> {
        const YamlNode* n = res.get(key);
        if (!n)
            return std::nullopt;
        if (n->isScalar())
            return n->scalar;
        c.error(n->pos, joinPath(field, key), std::string("expected a quantity, got ") + n->typeName());
        return std::nullopt;
    };
    auto number = [&](const char* key) -> std::optional<double> {
        const YamlNode* n = res.get(key);
        if (!n)
            return std::nullopt;
        auto d = n->asDouble();
        if (!d)
            c.error(n->pos, joinPath(field, key), "expected a number, got " + Ctx::describe(*n));
        return d;
    };
    // The resource* string fields win; they are what current compilers write (and may hold
    // parameter placeholders).
    if (auto s = text("resourceCpuRequest"))
        task.requests["cpu"] = *s;
    else if (auto d = number("cpuRequest"))
        task.requests["cpu"] = coresText(*d);
    if (auto s = text("resourceCpuLimit"))
        task.limits["cpu"] = *s;
    else if (auto d = number("cpuLimit"))
        task.limits["cpu"] = coresText(*d);
    if (auto s = text("resourceMemoryRequest"))
        task.requests["memory"] = *s;
    else if (auto d = number("memoryRequest"))
        task.requests["memory"] = gbText(*d);
    if (auto s = text("resourceMemoryLimit"))
        task.limits["memory"] = *s;
    else if (auto d = number("memoryLimit"))
        task.limits["memory"] = gbText(*d);
    if (const YamlNode* acc = res.get("accelerator")) {
        if (!c.isMap(*acc, joinPath(field, "accelerator")))
            return;
        std::optional<std::string> type = acc->get("resourceType") ? c.str(*acc, "resourceType", field, false)
                                                                   : c.str(*acc, "type", field, false);
        const YamlNode* count = acc->get("resourceCount") ? acc->get("resourceCount") : acc->get("count");
        if (type && !type->empty()) {
            const std::string n = count && count->isScalar() ? count->scalar : "1";
            // Device-plugin extended resource: limits, and requests defaulted to limits as the
            // API server does for extended resources.
            task.limits[*type] = n;
            task.requests[*type] = n;
        }
    }
}

void readPlatform(const YamlNode& exec, const std::string& field, KfpTask& task, Ctx& c)
{
    if (const YamlNode* claims = exec.get("podResourceClaims")) {
        const std::string f = joinPath(field, "podResourceClaims");
        if (!claims->isSequence()) {
            c.error(claims->pos, f, std::string("expected a list, got ") + claims->typeName());
        } else {
            for (size_t i = 0; i < claims->items.size(); ++i) {
                const YamlNode& item = claims->items[i];
                const std::string fi = f + "[" + std::to_string(i) + "]";
                if (!c.isMap(item, fi))
                    continue;
                KfpClaim claim;
                claim.pos = item.pos;
                claim.templateName = c.str(item, "resourceClaimTemplateName", fi, false);
                if (const YamlNode* json = item.get("resourceClaimJson"))
                    claim.json = valueRef(*json, joinPath(fi, "resourceClaimJson"), c);
                if (!claim.templateName && !item.get("resourceClaimJson")) {
                    c.error(item.pos, fi, "needs resourceClaimTemplateName or resourceClaimJson");
                    continue;
                }
                task.claims.push_back(std::move(claim));
            }
        }
    }
    if (const YamlNode* ns = exec.get("nodeSelector")) {
        // kfp-kubernetes writes {labels: {k: v}} (older: {nodeSelectorJson: ...}, not supported).
        const YamlNode* labels = ns->isMap() ? ns->get("labels") : nullptr;
        if (labels && labels->isMap())
            for (const auto& [k, v] : labels->entries)
                task.nodeSelector[k.scalar] = v.scalar;
    }
    if (const YamlNode* tols = exec.get("tolerations"); tols && tols->isSequence()) {
        for (const YamlNode& t : tols->items) {
            if (!t.isMap())
                continue;
            api::Toleration tol;
            tol.key = t.get("key") ? t.get("key")->scalar : "";
            tol.op = t.get("operator") ? t.get("operator")->scalar : "";
            tol.value = t.get("value") ? t.get("value")->scalar : "";
            tol.effect = t.get("effect") ? t.get("effect")->scalar : "";
            if (const YamlNode* s = t.get("tolerationSeconds"))
                tol.tolerationSeconds = s->asInt();
            task.tolerations.push_back(std::move(tol));
        }
    }
}

// Cycle search on the Boost graph: the first back edge closes a cycle; the DFS predecessor chain
// gives its members.
struct CycleFinder : boost::default_dfs_visitor
{
    std::vector<size_t>* parent;
    std::optional<std::pair<size_t, size_t>>* backEdge;
    template <class Edge, class Graph> void back_edge(Edge e, const Graph& g)
    {
        if (!*backEdge)
            *backEdge = std::make_pair(size_t(boost::source(e, g)), size_t(boost::target(e, g)));
    }
    template <class Edge, class Graph> void tree_edge(Edge e, const Graph& g)
    {
        (*parent)[boost::target(e, g)] = boost::source(e, g);
    }
};

// Orders tasks: dependencies first, ties by name (Kahn's algorithm with an ordered ready set).
// Returns false and reports the cycle when there is one.
bool orderTasks(std::vector<KfpTask>& tasks, Ctx& c)
{
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
    std::sort(tasks.begin(), tasks.end(), [](const KfpTask& a, const KfpTask& b) { return a.name < b.name; });
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < tasks.size(); ++i)
        index[tasks[i].name] = i;
    Graph g(tasks.size());
    bool ok = true;
    for (size_t i = 0; i < tasks.size(); ++i) {
        for (const std::string& dep : tasks[i].dependsOn) {
            auto it = index.find(dep);
            if (it == index.end()) {
                c.error(tasks[i].pos, "root.dag.tasks." + tasks[i].name + ".dependentTasks",
                    "depends on unknown task \"" + dep + "\"");
                ok = false;
                continue;
            }
            boost::add_edge(it->second, i, g); // dependency → dependent
        }
    }
    if (!ok)
        return false;

    std::vector<size_t> parent(tasks.size(), SIZE_MAX);
    std::optional<std::pair<size_t, size_t>> back;
    CycleFinder finder;
    finder.parent = &parent;
    finder.backEdge = &back;
    std::vector<boost::default_color_type> colors(tasks.size());
    boost::depth_first_search(g,
        boost::visitor(finder).color_map(
            boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, g))));
    if (back) {
        // back edge u → v: v is an ancestor of u on the DFS tree; walk up from u to v.
        std::vector<std::string> cycle;
        for (size_t v = back->first; v != SIZE_MAX; v = parent[v]) {
            cycle.push_back(tasks[v].name);
            if (v == back->second)
                break;
        }
        std::reverse(cycle.begin(), cycle.end());
        // Start the report at the smallest name, so the message does not depend on DFS order.
        std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
        std::string text;
        for (const std::string& n : cycle)
            text += n + " -> ";
        text += cycle.front();
        c.error(tasks[back->second].pos, "root.dag.tasks", "dependency cycle: " + text);
        return false;
    }

    std::vector<size_t> indegree(tasks.size());
    std::set<std::pair<std::string, size_t>> ready;
    for (size_t i = 0; i < tasks.size(); ++i) {
        indegree[i] = boost::in_degree(i, g);
        if (indegree[i] == 0)
            ready.emplace(tasks[i].name, i);
    }
    std::vector<KfpTask> ordered;
    while (!ready.empty()) {
        const size_t i = ready.begin()->second;
        ready.erase(ready.begin());
        ordered.push_back(tasks[i]);
        for (auto [e, end] = boost::out_edges(i, g); e != end; ++e) {
            const size_t t = boost::target(*e, g);
            if (--indegree[t] == 0)
                ready.emplace(tasks[t].name, t);
        }
    }
    tasks = std::move(ordered);
    return true;
}

// Inputs visible inside a DAG: at the root the pipeline parameters; inside a sub-DAG (sub-pipeline,
// ParallelFor iteration, exit handler) the inputs its task passed in, already resolved to root
// terms, plus the loop item.
struct DagScope
{
    bool root = true;
    std::map<std::string, KfpValueRef> inputs;
};

// Flattens the DAG into container tasks. A task whose component is itself a DAG is expanded in
// place: its tasks get the prefix "<task>-" (ParallelFor iterations "<task>-<i>-"), inherit its
// dependencies, and whoever depends on it depends on all of them. Decision: this is the order KFP
// enforces (a DAG task is done when all its tasks are); runtime-only constructs (ParallelFor over a
// list computed at run time, conditions) are reported as unsupported rather than guessed.
class DagFlattener
{
public:
    Ctx& c;
    const YamlNode& components;
    const YamlNode& executors;
    const YamlNode* platformExecutors;
    KfpPipeline& out;

    std::vector<size_t> flatten(const YamlNode& tasks, const std::string& field, const std::string& prefix,
        const DagScope& scope, int depth)
    {
        std::vector<size_t> produced;
        if (depth > 16) {
            c.error(tasks.pos, field, "DAG components nested more than 16 levels deep");
            return produced;
        }
        std::map<std::string, std::vector<size_t>> expansion; // sibling name → flattened tasks
        struct SiblingDeps
        {
            size_t index; // flattened task
            std::set<std::string> names; // dependencies at this DAG level
            std::string field; // the task entry they come from
            SourcePos pos;
        };
        std::vector<SiblingDeps> siblingDeps;
        std::set<std::pair<std::string, std::string>> reported; // (entry, missing name): report once
        for (const auto& [k, v] : tasks.entries) {
            const std::string f = joinPath(field, k.scalar);
            if (!c.isMap(v, f))
                continue;
            const YamlNode* ref = c.map(v, "componentRef", f, true);
            auto compName = ref ? c.str(*ref, "name", joinPath(f, "componentRef"), true) : std::nullopt;
            if (!compName)
                continue;
            const YamlNode* comp = components.get(*compName);
            if (!comp || !comp->isMap()) {
                c.error(ref->get("name")->pos, joinPath(f, "componentRef.name"),
                    "unknown component \"" + *compName + "\"");
                continue;
            }
            if (v.get("triggerPolicy") && v.get("triggerPolicy")->isMap()
                && v.get("triggerPolicy")->get("condition")) {
                c.error(v.get("triggerPolicy")->pos, joinPath(f, "triggerPolicy.condition"),
                    "conditional tasks (dsl.If/Condition) depend on run-time values; drasim does not run "
                    "them");
                continue;
            }
            std::set<std::string> deps = siblingDependencies(v, f);
            std::vector<size_t> mine;
            if (const YamlNode* dag = comp->get("dag")) {
                mine = expandDag(k, v, *dag, f, prefix, scope, depth);
            } else {
                auto index = containerTask(k, v, *comp, *compName, f, prefix, scope);
                if (index) {
                    mine.push_back(*index);
                    const std::set<std::string>& extra = m_claimProducers[*index];
                    deps.insert(extra.begin(), extra.end());
                }
            }
            for (size_t i : mine)
                siblingDeps.push_back(SiblingDeps { i, deps, f, k.pos });
            expansion[k.scalar] = mine;
            produced.insert(produced.end(), mine.begin(), mine.end());
        }
        for (const SiblingDeps& sd : siblingDeps) {
            KfpTask& task = out.tasks[sd.index];
            for (const std::string& d : sd.names) {
                auto it = expansion.find(d);
                if (it == expansion.end()) {
                    if (reported.emplace(sd.field, d).second)
                        c.error(sd.pos, joinPath(sd.field, "dependentTasks"),
                            "depends on unknown task \"" + d + "\"");
                    continue;
                }
                for (size_t j : it->second)
                    task.dependsOn.push_back(out.tasks[j].name); // may be itself: reported as a cycle
            }
            std::sort(task.dependsOn.begin(), task.dependsOn.end());
            task.dependsOn.erase(
                std::unique(task.dependsOn.begin(), task.dependsOn.end()), task.dependsOn.end());
        }
        return produced;
    }

private:
    // dependentTasks plus the producers of parameter/artifact inputs (names at this DAG level).
    std::set<std::string> siblingDependencies(const YamlNode& v, const std::string& f)
    {
        std::set<std::string> deps;
        for (const std::string& d : c.strList(v, "dependentTasks", f))
            deps.insert(d);
        if (const YamlNode* inputs = v.get("inputs"); inputs && inputs->isMap()) {
            if (const YamlNode* ps = inputs->get("parameters"); ps && ps->isMap())
                for (const auto& [pk, pv] : ps->entries)
                    for (const char* key : { "taskOutputParameter", "taskFinalStatus" })
                        if (const YamlNode* t = pv.isMap() ? pv.get(key) : nullptr)
                            if (const YamlNode* p = t->isMap() ? t->get("producerTask") : nullptr)
                                deps.insert(p->scalar);
            if (const YamlNode* as = inputs->get("artifacts"); as && as->isMap())
                for (const auto& [ak, av] : as->entries)
                    if (const YamlNode* t = av.isMap() ? av.get("taskOutputArtifact") : nullptr)
                        if (const YamlNode* p = t->isMap() ? t->get("producerTask") : nullptr)
                            deps.insert(p->scalar);
        }
        return deps;
    }

    // A reference as seen from this scope, rewritten to root terms.
    std::optional<KfpValueRef> resolve(
        KfpValueRef r, const DagScope& scope, const std::string& prefix, const std::string& field)
    {
        if (r.kind == KfpValueRef::Kind::TaskOutput) {
            r.producerTask = prefix + r.producerTask;
            return r;
        }
        if (r.kind != KfpValueRef::Kind::PipelineParameter)
            return r;
        if (scope.root) {
            if (!out.parameters.count(r.parameter)) {
                c.error(r.pos, field, "pipeline has no parameter \"" + r.parameter + "\"");
                return std::nullopt;
            }
            return r;
        }
        auto it = scope.inputs.find(r.parameter);
        if (it == scope.inputs.end()) {
            c.error(r.pos, field, "the enclosing DAG has no input \"" + r.parameter + "\"");
            return std::nullopt;
        }
        KfpValueRef resolved = it->second;
        resolved.pos = r.pos;
        return resolved;
    }

    std::vector<size_t> expandDag(const YamlNode& k, const YamlNode& v, const YamlNode& dag,
        const std::string& f, const std::string& prefix, const DagScope& scope, int depth)
    {
        std::vector<size_t> produced;
        const YamlNode* innerTasks = dag.isMap() ? dag.get("tasks") : nullptr;
        if (!innerTasks || !innerTasks->isMap()) {
            c.required(dag, "components." + v.get("componentRef")->get("name")->scalar + ".dag.tasks");
            return produced;
        }
        DagScope inner;
        inner.root = false;
        if (const YamlNode* inputs = v.get("inputs"); inputs && inputs->isMap())
            if (const YamlNode* ps = inputs->get("parameters"); ps && ps->isMap())
                for (const auto& [pk, pv] : ps->entries) {
                    const std::string pf = joinPath(f, "inputs.parameters." + pk.scalar);
                    if (auto r = valueRef(pv, pf, c))
                        if (auto rr = resolve(*r, scope, prefix, pf))
                            inner.inputs[pk.scalar] = *rr;
                }
        const std::string compField
            = "components." + v.get("componentRef")->get("name")->scalar + ".dag.tasks";
        const YamlNode* iterator = v.get("parameterIterator");
        if (v.get("artifactIterator")) {
            c.error(v.get("artifactIterator")->pos, joinPath(f, "artifactIterator"),
                "ParallelFor over artifacts depends on run-time outputs; drasim does not expand it");
            return produced;
        }
        if (!iterator) {
            return flatten(*innerTasks, compField, prefix + k.scalar + "-", inner, depth + 1);
        }
        // ParallelFor: only a literal item list can be expanded without running the pipeline.
        const YamlNode* itemInput = iterator->isMap() ? iterator->get("itemInput") : nullptr;
        const YamlNode* items = iterator->isMap() ? iterator->get("items") : nullptr;
        const YamlNode* raw = items && items->isMap() ? items->get("raw") : nullptr;
        if (!itemInput || !raw) {
            c.error(iterator->pos, joinPath(f, "parameterIterator"),
                "ParallelFor over a list known only at run time (items.inputParameter) is not supported; "
                "give the items literally");
            return produced;
        }
        Diagnostics jsonDiags;
        auto docs = yamlio::parseYamlDocuments(raw->scalar, "<items>", jsonDiags);
        if (jsonDiags.hasErrors() || docs.size() != 1 || !docs[0].isSequence()) {
            c.error(raw->pos, joinPath(f, "parameterIterator.items.raw"),
                "expected a JSON list, got " + raw->scalar);
            return produced;
        }
        for (size_t i = 0; i < docs[0].items.size(); ++i) {
            DagScope iteration = inner;
            KfpValueRef item;
            item.kind = KfpValueRef::Kind::Constant;
            item.constant = yamlToDataValue(docs[0].items[i]);
            item.pos = raw->pos;
            iteration.inputs[itemInput->scalar] = item;
            auto more = flatten(*innerTasks, compField, prefix + k.scalar + "-" + std::to_string(i) + "-",
                iteration, depth + 1);
            produced.insert(produced.end(), more.begin(), more.end());
        }
        return produced;
    }

    std::optional<size_t> containerTask(const YamlNode& k, const YamlNode& v, const YamlNode& comp,
        const std::string& compName, const std::string& f, const std::string& prefix, const DagScope& scope)
    {
        KfpTask task;
        task.name = prefix + k.scalar;
        task.baseName = k.scalar;
        task.pos = k.pos;
        task.component = compName;
        if (const YamlNode* info = v.get("taskInfo"); info && info->isMap())
            task.displayName = c.str(*info, "name", joinPath(f, "taskInfo"), false).value_or(k.scalar);
        if (const YamlNode* pts = comp.get("taskConfigPassthroughs"); pts && pts->isSequence()) {
            for (const YamlNode& pt : pts->items) {
                const YamlNode* field = pt.isMap() ? pt.get("field") : nullptr;
                if (field && field->scalar == "KUBERNETES_RESOURCE_CLAIMS") {
                    const YamlNode* apply = pt.get("applyToTask");
                    task.claimsToPod = apply && apply->asBool().value_or(false);
                }
            }
        }
        auto label = c.str(comp, "executorLabel", "components." + compName, true);
        if (!label)
            return std::nullopt;
        task.executor = *label;
        if (const YamlNode* idef = comp.get("inputDefinitions"); idef && idef->isMap())
            if (const YamlNode* ps = idef->get("parameters"); ps && ps->isMap())
                for (const auto& [pk, pv] : ps->entries)
                    if (const YamlNode* d = pv.isMap() ? pv.get("defaultValue") : nullptr)
                        task.componentDefaults[pk.scalar] = yamlToDataValue(*d);
        const YamlNode* exec = executors.get(task.executor);
        if (!exec || !exec->isMap()) {
            c.error(comp.get("executorLabel")->pos, "components." + compName + ".executorLabel",
                "no executor \"" + task.executor + "\" in deploymentSpec.executors");
            return std::nullopt;
        }
        const std::string ef = "deploymentSpec.executors." + task.executor;
        if (const YamlNode* container = exec->get("container"); container && container->isMap()) {
            task.image = c.str(*container, "image", joinPath(ef, "container"), true).value_or("");
            task.command = c.strList(*container, "command", joinPath(ef, "container"));
            task.args = c.strList(*container, "args", joinPath(ef, "container"));
            if (const YamlNode* res = container->get("resources"); res && res->isMap())
                readResources(*res, joinPath(ef, "container.resources"), task, c);
        } else if (exec->get("importer") || exec->get("resolver")) {
            // Importers run as a small launcher pod in KFP; no user container, no resources.
            task.image = "kfp-launcher";
        } else {
            c.error(exec->pos, ef, "executor has no container, importer or resolver");
            return std::nullopt;
        }
        if (const YamlNode* inputs = v.get("inputs"); inputs && inputs->isMap()) {
            if (const YamlNode* ps = inputs->get("parameters"); ps && ps->isMap()) {
                for (const auto& [pk, pv] : ps->entries) {
                    const std::string pf = joinPath(f, "inputs.parameters." + pk.scalar);
                    auto r = valueRef(pv, pf, c);
                    if (!r)
                        continue;
                    if (auto rr = resolve(*r, scope, prefix, joinPath(pf, "componentInputParameter")))
                        task.inputs[pk.scalar] = std::move(*rr);
                }
            }
        }
        if (platformExecutors)
            if (const YamlNode* pe = platformExecutors->get(task.executor); pe && pe->isMap())
                readPlatform(*pe, "platforms.kubernetes.deploymentSpec.executors." + task.executor, task, c);
        for (KfpClaim& claim : task.claims) {
            if (!claim.json)
                continue;
            // A claim from another task's output orders this task after it, like an input does.
            if (claim.json->kind == KfpValueRef::Kind::TaskOutput)
                m_claimProducers[out.tasks.size()].insert(claim.json->producerTask);
            if (auto rr = resolve(*claim.json, scope, prefix,
                    "podResourceClaims.resourceClaimJson.componentInputParameter"))
                claim.json = *rr;
        }
        out.tasks.push_back(std::move(task));
        return out.tasks.size() - 1;
    }

public:
    /// Producers named by resourceClaimJson.taskOutputParameter, by flattened task index; they are
    /// siblings of the task's own DAG level.
    std::map<size_t, std::set<std::string>> m_claimProducers;
};

bool parsePipelineSpec(const YamlNode& spec, const YamlNode* platform, KfpPipeline& out, Ctx& c)
{
    if (!c.isMap(spec, ""))
        return false;
    if (const YamlNode* info = c.map(spec, "pipelineInfo", "", true)) {
        if (auto n = c.str(*info, "name", "pipelineInfo", true)) {
            out.name = *n;
            c.setName(out.name);
        }
    }
    out.sdkVersion = c.str(spec, "sdkVersion", "", false).value_or("");
    out.schemaVersion = c.str(spec, "schemaVersion", "", false).value_or("");
    if (!out.schemaVersion.empty() && out.schemaVersion.rfind("2.", 0) != 0)
        c.error(spec.get("schemaVersion")->pos, "schemaVersion",
            "unsupported schemaVersion " + out.schemaVersion + " (KFP v2 IR is 2.x)");
    const YamlNode* components = c.map(spec, "components", "", true);
    const YamlNode* deployment = c.map(spec, "deploymentSpec", "", true);
    const YamlNode* executors
        = deployment ? c.map(*deployment, "executors", "deploymentSpec", true) : nullptr;
    const YamlNode* root = c.map(spec, "root", "", true);
    const YamlNode* dag = root ? c.map(*root, "dag", "root", true) : nullptr;
    const YamlNode* tasks = dag ? c.map(*dag, "tasks", "root.dag", true) : nullptr;
    if (!components || !executors || !tasks)
        return false;

    if (const YamlNode* inputs = root->get("inputDefinitions")) {
        if (const YamlNode* params = inputs->isMap() ? inputs->get("parameters") : nullptr;
            params && params->isMap()) {
            for (const auto& [k, v] : params->entries) {
                KfpParameter p;
                p.pos = k.pos;
                const std::string f = "root.inputDefinitions.parameters." + k.scalar;
                if (!c.isMap(v, f))
                    continue;
                p.type = c.str(v, "parameterType", f, true).value_or("");
                if (const YamlNode* d = v.get("defaultValue"))
                    p.defaultValue = yamlToDataValue(*d);
                if (const YamlNode* o = v.get("isOptional"))
                    p.optional = o->asBool().value_or(false);
                out.parameters[k.scalar] = std::move(p);
            }
        }
    }

    const YamlNode* platformExecutors = nullptr;
    if (platform) {
        const YamlNode* k8s = nullptr;
        if (const YamlNode* platforms = platform->get("platforms"); platforms && platforms->isMap())
            k8s = platforms->get("kubernetes");
        const YamlNode* dep = k8s && k8s->isMap() ? k8s->get("deploymentSpec") : nullptr;
        platformExecutors = dep && dep->isMap() ? dep->get("executors") : nullptr;
        if (platformExecutors && !platformExecutors->isMap())
            platformExecutors = nullptr;
    }

    DagFlattener flattener { c, *components, *executors, platformExecutors, out, {} };
    flattener.flatten(*tasks, "root.dag.tasks", "", DagScope {}, 0);
    if (!c.ok())
        return false;
    if (out.tasks.empty()) {
        c.error(tasks->pos, "root.dag.tasks", "pipeline has no tasks");
        return false;
    }
    return orderTasks(out.tasks, c);
}

bool typeMatches(const std::string& type, const DataValue& v)
{
    if (type == "STRING")
        return v.isString();
    if (type == "NUMBER_INTEGER")
        return v.isInt() || (v.isDouble() && std::floor(v.asDouble()) == v.asDouble());
    if (type == "NUMBER_DOUBLE")
        return v.isInt() || v.isDouble();
    if (type == "BOOLEAN")
        return v.isBool();
    if (type == "LIST")
        return v.isList();
    if (type == "STRUCT")
        return v.isMap() || v.isList(); // resource claim JSON may be a list (KFP accepts it)
    return true; // TASK_CONFIG and future types: no check
}

const char* dataTypeName(const DataValue& v)
{
    if (v.isNull())
        return "null";
    if (v.isBool())
        return "boolean";
    if (v.isInt())
        return "integer";
    if (v.isDouble())
        return "number";
    if (v.isString())
        return "string";
    if (v.isList())
        return "list";
    return "map";
}

// resourceClaimJson value → template names. One {resourceClaimTemplateName} object, a list of
// them, or the same as JSON text.
bool claimNames(const DataValue& v, std::vector<std::string>& out, std::string& err)
{
    if (v.isString()) {
        Diagnostics parseDiags;
        auto docs = yamlio::parseYamlDocuments(v.asString(), "<resourceClaimJson>", parseDiags);
        if (parseDiags.hasErrors() || docs.size() != 1 || docs[0].isScalar() || docs[0].isNull()) {
            err = "resourceClaimJson string is not a JSON object or list: " + v.asString();
            return false;
        }
        return claimNames(yamlToDataValue(docs[0]), out, err);
    }
    if (v.isList()) {
        for (const DataValue& item : v.asList())
            if (!claimNames(item, out, err))
                return false;
        return true;
    }
    if (v.isMap()) {
        const DataValue* name = v.find("resourceClaimTemplateName");
        if (!name || !name->isString()) {
            err = "resourceClaimJson object needs a string resourceClaimTemplateName, got " + compactJson(v);
            return false;
        }
        if (name->asString().empty()) {
            err = "resource claim template name must not be empty";
            return false;
        }
        out.push_back(name->asString());
        return true;
    }
    err = std::string(
              "resourceClaimJson must be an object {resourceClaimTemplateName: ...} or a list of them, got ")
        + dataTypeName(v);
    return false;
}

class PipelineSource final : public ArrivalSource
{
public:
    PipelineSource(
        const WorkloadSpec& spec, KfpRunTemplate run, std::vector<DurationSampler> durations, uint64_t seed)
        : m_spec(spec)
        , m_run(std::move(run))
        , m_durations(std::move(durations))
        , m_arrivals(spec.arrival.value_or(ArrivalSpec {}), mixSeed(seed, 1))
        , m_durationRng(mixSeed(seed, 3))
        , m_labels(
              std::make_shared<const api::Labels>(api::Labels { { "drasim.dev/pipeline", m_run.pipeline } }))
    {
        // "once" without a count means one run.
        m_once
            = !spec.arrival || (spec.arrival->process == ArrivalSpec::Process::Once && !spec.arrival->count);
    }

    std::optional<JobSpec> next() override
    {
        if (m_once && m_seq > 0)
            return std::nullopt;
        auto t = m_arrivals.next();
        if (!t)
            return std::nullopt;
        JobSpec job;
        job.name = m_spec.name + "-" + std::to_string(m_seq++);
        job.namespace_ = m_spec.namespace_;
        job.workload = m_spec.name;
        job.kind = kKindPipelineRun;
        job.arrivalSeconds = *t;
        job.labels = m_labels;
        for (size_t i = 0; i < m_run.taskNames.size(); ++i) {
            TaskSpec task;
            task.name = m_run.taskNames[i];
            task.pod = m_run.pods[i];
            task.dependsOn = m_run.dependsOn[i];
            task.durationSeconds = m_durations[i].sample(m_durationRng);
            task.priority = task.pod->spec.priority.value_or(0);
            job.tasks.push_back(std::move(task));
        }
        return job;
    }

private:
    WorkloadSpec m_spec;
    KfpRunTemplate m_run;
    std::vector<DurationSampler> m_durations;
    ArrivalProcess m_arrivals;
    Rng m_durationRng;
    std::shared_ptr<const api::Labels> m_labels; ///< drasim.dev/pipeline, shared by every run
    bool m_once = true;
    uint64_t m_seq = 0;
};

} // namespace

std::string substituteKfpPlaceholders(const std::string& text, const std::map<std::string, DataValue>& values)
{
    static const std::string kOpen = "{{$.inputs.parameters['";
    static const std::string kClose = "']}}";
    std::string out;
    size_t i = 0;
    while (true) {
        const size_t open = text.find(kOpen, i);
        if (open == std::string::npos)
            break;
        const size_t nameStart = open + kOpen.size();
        const size_t close = text.find(kClose, nameStart);
        if (close == std::string::npos)
            break;
        const std::string name = text.substr(nameStart, close - nameStart);
        out.append(text, i, open - i);
        auto it = values.find(name);
        if (it != values.end())
            out += jsonText(it->second);
        else
            out.append(text, open, close + kClose.size() - open);
        i = close + kClose.size();
    }
    out.append(text, i, std::string::npos);
    return out;
}

std::optional<KfpPipeline> parseKfpPipeline(
    const std::string& text, const std::string& fileName, Diagnostics& diags)
{
    const size_t before = diags.errorCount();
    std::vector<YamlNode> docs = yamlio::parseYamlDocuments(text, fileName, diags);
    if (diags.errorCount() > before)
        return std::nullopt;
    Ctx c("", diags);
    const YamlNode* spec = nullptr;
    const YamlNode* platform = nullptr;
    for (const YamlNode& d : docs) {
        if (!d.isMap())
            continue;
        const YamlNode* kind = d.get("kind");
        if (kind && kind->scalar == "PipelineVersion") {
            const YamlNode* s = d.get("spec");
            if (s && s->isMap()) {
                spec = s->get("pipelineSpec") ? s->get("pipelineSpec") : spec;
                platform = s->get("platformSpec") ? s->get("platformSpec") : platform;
            }
        } else if (kind && kind->scalar == "Pipeline") {
            continue; // the Pipeline object only names the pipeline; its versions carry the spec
        } else if (d.get("platforms")) {
            platform = &d;
        } else if (d.get("root") || d.get("pipelineInfo") || d.get("components")) {
            spec = &d;
        }
    }
    if (!spec) {
        diags.error(SourcePos { fileName, 1, 1 }, kPipelineKind, "", "",
            "no pipeline spec found (expected a compiled KFP v2 IR document with components, deploymentSpec, "
            "pipelineInfo and root)");
        return std::nullopt;
    }
    KfpPipeline out;
    out.file = fileName;
    if (!parsePipelineSpec(*spec, platform, out, c))
        return std::nullopt;
    return out;
}

std::optional<KfpPipeline> loadKfpPipeline(const std::string& path, Diagnostics& diags)
{
    std::string text, err;
    if (!yamlio::readFile(path, text, &err)) {
        diags.error(SourcePos { path, 0, 0 }, kPipelineKind, "", "", err);
        return std::nullopt;
    }
    return parseKfpPipeline(text, path, diags);
}

std::optional<std::map<std::string, DataValue>> resolveKfpArguments(const KfpPipeline& pipeline,
    const std::map<std::string, DataValue>& arguments, const SourcePos& at, Diagnostics& diags)
{
    bool ok = true;
    std::map<std::string, DataValue> values;
    for (const auto& [name, value] : arguments) {
        auto p = pipeline.parameters.find(name);
        if (p == pipeline.parameters.end()) {
            // TaskOutput stand-ins ("task.output") are consumed by buildKfpRunTemplate.
            if (name.find('.') != std::string::npos)
                continue;
            std::string have;
            for (const auto& [n, _] : pipeline.parameters)
                have += (have.empty() ? "" : ", ") + n;
            diags.error(at, kPipelineKind, pipeline.name, "arguments." + name,
                "pipeline has no parameter \"" + name + "\" (parameters: " + (have.empty() ? "none" : have)
                    + ")");
            ok = false;
            continue;
        }
        DataValue v = value;
        // STRUCT and LIST arguments may be given as JSON text, as the KFP CLI and UI take them.
        if (v.isString() && (p->second.type == "STRUCT" || p->second.type == "LIST")) {
            Diagnostics jsonDiags;
            auto docs = yamlio::parseYamlDocuments(v.asString(), "<argument>", jsonDiags);
            if (!jsonDiags.hasErrors() && docs.size() == 1 && (docs[0].isMap() || docs[0].isSequence()))
                v = yamlToDataValue(docs[0]);
        }
        if (!typeMatches(p->second.type, v)) {
            diags.error(at, kPipelineKind, pipeline.name, "arguments." + name,
                "parameter is " + p->second.type + ", got " + dataTypeName(v));
            ok = false;
            values[name] = DataValue(); // present, so it is not also reported as missing
            continue;
        }
        values[name] = v;
    }
    for (const auto& [name, p] : pipeline.parameters) {
        if (values.count(name))
            continue;
        if (p.defaultValue) {
            values[name] = *p.defaultValue;
        } else if (!p.optional) {
            diags.error(at, kPipelineKind, pipeline.name, "arguments." + name,
                "required pipeline parameter \"" + name + "\" (" + p.type
                    + ") has no argument and no default");
            ok = false;
        }
    }
    if (!ok)
        return std::nullopt;
    // KFP writes integer defaults as floats ("defaultValue: 3.0"): give NUMBER_INTEGER values their
    // integer form so that substituted args read "3", as the KFP launcher passes them.
    for (auto& [name, v] : values) {
        auto p = pipeline.parameters.find(name);
        if (p != pipeline.parameters.end() && p->second.type == "NUMBER_INTEGER" && v.isDouble())
            v = DataValue(int64_t(v.asDouble()));
    }
    return values;
}

std::optional<KfpRunTemplate> buildKfpRunTemplate(const KfpPipeline& pipeline,
    const std::map<std::string, DataValue>& values, const std::map<std::string, DataValue>& arguments,
    const std::string& namespace_, const SourcePos& at, Diagnostics& diags)
{
    Ctx c(pipeline.name, diags);
    KfpRunTemplate run;
    run.pipeline = pipeline.name;
    for (const KfpTask& task : pipeline.tasks) {
        const std::string f = "root.dag.tasks." + task.name;
        std::map<std::string, DataValue> inputs = task.componentDefaults;
        for (const auto& [name, ref] : task.inputs) {
            if (ref.kind == KfpValueRef::Kind::Constant)
                inputs[name] = ref.constant;
            else if (ref.kind == KfpValueRef::Kind::PipelineParameter) {
                auto it = values.find(ref.parameter);
                if (it != values.end())
                    inputs[name] = it->second;
            }
            // TaskOutput inputs are produced at run time; their placeholders stay as written.
        }
        auto pod = std::make_shared<api::PodTemplateSpec>();
        pod->meta.namespace_ = namespace_;
        pod->meta.labels["pipelines.kubeflow.org/v2_component"] = "true";
        pod->meta.labels["drasim.dev/pipeline"] = pipeline.name;
        pod->meta.labels["drasim.dev/pipeline-task"] = task.name;
        pod->meta.pos = task.pos;
        api::Container main;
        main.name = "main";
        main.image = task.image;
        auto quantities
            = [&](const std::map<std::string, std::string>& in, api::ResourceList& out, const char* which) {
                  for (const auto& [res, text] : in) {
                      const std::string value = substituteKfpPlaceholders(text, inputs);
                      std::string err;
                      auto q = Quantity::parse(value, &err);
                      if (!q)
                          c.error(task.pos, f,
                              std::string("container ") + which + " " + res + " \"" + value + "\": " + err);
                      else
                          out[res] = *q;
                  }
              };
        quantities(task.requests, main.resources.requests, "request");
        quantities(task.limits, main.resources.limits, "limit");
        pod->spec.nodeSelector = task.nodeSelector;
        pod->spec.tolerations = task.tolerations;

        std::vector<std::string> templates;
        for (const KfpClaim& claim : task.claims) {
            if (!claim.json) {
                if (claim.templateName->empty())
                    c.error(claim.pos, f, "resource claim template name must not be empty");
                else
                    templates.push_back(*claim.templateName);
                continue;
            }
            DataValue v;
            const KfpValueRef& ref = *claim.json;
            if (ref.kind == KfpValueRef::Kind::Constant) {
                v = ref.constant;
            } else if (ref.kind == KfpValueRef::Kind::PipelineParameter) {
                auto it = values.find(ref.parameter);
                if (it == values.end()) {
                    c.error(claim.pos, f,
                        "resourceClaimJson reads parameter \"" + ref.parameter
                            + "\", which has no value in this run");
                    continue;
                }
                v = it->second;
            } else {
                const std::string key = ref.producerTask + "." + ref.outputKey;
                auto it = arguments.find(key);
                if (it == arguments.end()) {
                    diags.error(at, kPipelineKind, pipeline.name, "arguments." + key,
                        "task " + task.name + " takes its resource claims from the output \"" + ref.outputKey
                            + "\" of task " + ref.producerTask
                            + "; the simulator runs no code, so give that value as run argument \"" + key
                            + "\"");
                    c.error(claim.pos, f, "unresolved resourceClaimJson");
                    continue;
                }
                v = it->second;
            }
            std::string err;
            if (!claimNames(v, templates, err))
                c.error(claim.pos, f, err);
        }
        if (!task.claimsToPod) {
            // Passthrough only: the claims are handed to the workload the task launches.
            DataValue names = DataValue::list();
            for (const std::string& t : templates)
                names.push(t);
            if (!templates.empty())
                pod->meta.annotations["drasim.dev/kfp-passthrough-claims"] = compactJson(names);
            templates.clear();
        }
        std::set<std::string> seen;
        for (const std::string& t : templates) {
            if (!seen.insert(t).second) {
                // Two entries naming one template would give two pod claims with one name, which
                // the API server rejects; keep the first.
                c.warning(task.pos, f, "resource claim template \"" + t + "\" listed twice; using it once");
                continue;
            }
            pod->spec.resourceClaims.push_back(api::PodResourceClaim { t, std::nullopt, t });
            main.resources.claims.push_back(t); // the KFP driver adds claims to `main` only
            main.resources.claimRequests.push_back("");
        }
        pod->spec.containers.push_back(std::move(main));
        // Keep the substituted command line as annotations: the simulator does not run it, but
        // users inspecting a pod see what KFP would have executed.
        std::vector<std::string> args;
        for (const std::string& a : task.args)
            args.push_back(substituteKfpPlaceholders(a, inputs));
        DataValue argList = DataValue::list();
        for (const std::string& a : args)
            argList.push(a);
        pod->meta.annotations["drasim.dev/kfp-args"] = compactJson(argList);
        run.taskNames.push_back(task.name);
        run.baseNames.push_back(task.baseName);
        run.dependsOn.push_back(task.dependsOn);
        run.pods.push_back(std::move(pod));
    }
    if (!c.ok())
        return std::nullopt;
    return run;
}

std::unique_ptr<ArrivalSource> makePipelineSource(const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags)
{
    const PipelineRunSpec& p = *spec.pipeline;
    auto pipeline = loadKfpPipeline(p.path, diags);
    if (!pipeline)
        return nullptr;
    auto values = resolveKfpArguments(*pipeline, p.arguments, p.pos, diags);
    if (!values)
        return nullptr;
    auto run = buildKfpRunTemplate(*pipeline, *values, p.arguments, spec.namespace_, p.pos, diags);
    if (!run)
        return nullptr;
    std::vector<DurationSampler> durations;
    bool ok = true;
    for (const auto& [name, _] : p.taskDurations) {
        if (name != "default"
            && std::find(run->taskNames.begin(), run->taskNames.end(), name) == run->taskNames.end()
            && std::find(run->baseNames.begin(), run->baseNames.end(), name) == run->baseNames.end()) {
            diags.error(p.pos, "Workload", spec.name, "pipeline.taskDurations." + name,
                "pipeline " + pipeline->name + " has no task \"" + name + "\"");
            ok = false;
        }
    }
    for (size_t i = 0; i < run->taskNames.size(); ++i) {
        const std::string& task = run->taskNames[i];
        auto it = p.taskDurations.find(task);
        if (it == p.taskDurations.end())
            it = p.taskDurations.find(run->baseNames[i]);
        if (it == p.taskDurations.end())
            it = p.taskDurations.find("default");
        if (it != p.taskDurations.end())
            durations.emplace_back(it->second);
        else if (spec.duration)
            durations.emplace_back(*spec.duration);
        else {
            diags.error(p.pos, "Workload", spec.name, "pipeline.taskDurations." + task,
                "no duration for task \"" + task + "\" (set taskDurations." + task
                    + ", taskDurations.default or the workload's duration)");
            ok = false;
        }
    }
    if (!ok)
        return nullptr;
    return std::make_unique<PipelineSource>(spec, std::move(*run), std::move(durations), seed);
}

} // namespace drasim::workload
