// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/loader.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>
#include <thread>

#include "core/yamlio/admin_namespace.h"
#include "core/yamlio/admit_priorities.h"
#include "core/yamlio/lean_yaml.h"
#include "core/yamlio/list_splitter.h"
#include "core/yamlio/object_readers.h"
#include "core/yamlio/scheduling_versions.h"

namespace drasim::yamlio {

namespace {

constexpr const char* kClassicDra
    = "is classic DRA (resource.k8s.io/v1alpha1/v1alpha2, removed in Kubernetes 1.31); it was replaced by "
      "structured parameters: DeviceClass with CEL selectors instead of ResourceClass, ResourceSlices "
      "published "
      "by the driver, and ResourceClaim.spec.devices.requests instead of parametersRef (resource.k8s.io/v1)";

// Thrown out of the document callbacks to stop a cancelled load. Not a std::exception, so the YAML
// layer's error handlers let it through instead of reporting it as a syntax error.
struct LoadCancelled
{
};

// Polls the cancel token and reports progress over the bytes of all inputs. Used from the
// calling thread only, so a ProgressSink never sees concurrent calls.
class LoadControl
{
public:
    LoadControl(const LoadOptions& options, size_t totalBytes)
        : m_cancel(options.cancel)
        , m_progress(options.progress)
        , m_total(totalBytes)
    { }

    bool cancelled() const { return m_cancel && m_cancel->cancelled(); }
    void stopIfCancelled() const
    {
        if (cancelled())
            throw LoadCancelled {};
    }
    /// offset bytes of the current file are read.
    void reached(size_t offset) const
    {
        if (m_progress && m_total > 0)
            m_progress->progress(std::min(1.0, double(m_done + offset) / double(m_total)), "loading");
    }
    void fileDone(size_t bytes)
    {
        m_done += bytes;
        reached(0);
    }

private:
    const CancelToken* m_cancel;
    ProgressSink* m_progress;
    size_t m_total;
    size_t m_done = 0;
};

bool resourceVersion(std::string_view apiVersion, ResourceVersion& v)
{
    if (apiVersion == "resource.k8s.io/v1")
        v = ResourceVersion::V1;
    else if (apiVersion == "resource.k8s.io/v1beta2")
        v = ResourceVersion::V1beta2;
    else if (apiVersion == "resource.k8s.io/v1beta1")
        v = ResourceVersion::V1beta1;
    else if (apiVersion == "resource.k8s.io/v1alpha3")
        v = ResourceVersion::V1alpha3;
    else
        return false;
    return true;
}

class DocumentLoader
{
public:
    DocumentLoader(api::ObjectSet& objects, Diagnostics& diags, const std::string& file,
        const api::FeatureGates& gates, const LoadControl* control = nullptr)
        : m_objects(objects)
        , m_diags(diags)
        , m_file(file)
        , m_gates(gates)
        , m_control(control)
    { }

    void load(const lean::Document& doc)
    {
        Reader r(doc, m_file, m_diags);
        r.setGates(&m_gates);
        if (!r.isNull(0))
            ++m_documents;
        loadObject(r, 0, true);
    }
    size_t documents() const { return m_documents; }

    /// A piece cut out of a List's items: its root is a sequence of objects.
    void loadListItems(const lean::Document& doc)
    {
        Reader r(doc, m_file, m_diags);
        r.setGates(&m_gates);
        const uint32_t count = doc.nodes[0].kind == YamlNode::Kind::Sequence ? doc.nodes[0].children : 0;
        uint32_t c = 1;
        for (uint32_t i = 0; i < count; ++i, c = doc.next(c))
            loadObject(r, c, false);
    }

private:
    void loadObject(Reader& r, uint32_t root, bool allowList)
    {
        if (m_diags.full())
            return;
        if (r.nodeKind(root) != YamlNode::Kind::Map) {
            if (!r.isNull(root))
                r.error(root, Path {},
                    std::string("expected a Kubernetes object (a map with apiVersion and kind), got ")
                        + r.typeName(root));
            return;
        }
        const lean::Document& doc = r.doc();
        std::string apiVersion, kind;
        const uint32_t avNode = findKey(doc, root, "apiVersion");
        const uint32_t kindNode = findKey(doc, root, "kind");
        r.setObject("", "");
        if (avNode)
            r.getString(avNode, Path {}.field("apiVersion"), apiVersion);
        if (kindNode)
            r.getString(kindNode, Path {}.field("kind"), kind);
        if (kind.empty()) {
            r.error(kindNode ? kindNode : root, Path {}.field("kind"), "Required value: kind not set");
            return;
        }
        if (apiVersion.empty()) {
            r.setObject(kind, "");
            r.error(
                avNode ? avNode : root, Path {}.field("apiVersion"), "Required value: apiVersion not set");
            return;
        }
        if (allowList && (kind == "List" || (kind.size() > 4 && kind.ends_with("List")))) {
            r.setObject(kind, "");
            const Path p;
            r.fields(root, p, [&](std::string_view k, uint32_t, uint32_t v) {
                if (k == "items") {
                    r.items(v, p.field(k), [&](size_t, uint32_t item, const Path&) {
                        if (m_control)
                            m_control->stopIfCancelled();
                        loadObject(r, item, false);
                    });
                    return true;
                }
                return k == "apiVersion" || k == "kind" || k == "metadata";
            });
            return;
        }

        const bool namespaced = kind == "Pod" || kind == "Service" || kind == "Job" || kind == "Deployment"
            || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "ResourceClaim"
            || kind == "ResourceClaimTemplate" || kind == "Workload" || kind == "PodGroup"
            || kind == "CompositePodGroup" || kind == "PodDisruptionBudget";
        r.setObject(kind, peekObjectName(r, root, namespaced));
        const bool resourceGroup = apiVersion.starts_with("resource.k8s.io/");
        if ((resourceGroup
                && (apiVersion == "resource.k8s.io/v1alpha1" || apiVersion == "resource.k8s.io/v1alpha2"))
            || (resourceGroup
                && (kind == "ResourceClass" || kind == "ResourceClaimParameters"
                    || kind == "ResourceClassParameters" || kind == "PodSchedulingContext"))) {
            r.error(root, Path {}, apiVersion + " " + kind + " " + kClassicDra);
            return;
        }
        ResourceVersion rv = ResourceVersion::V1;
        auto wrongVersion = [&](const char* expected) {
            r.error(avNode, Path {}.field("apiVersion"),
                "no matches for kind \"" + kind + "\" in version \"" + apiVersion + "\" (expected " + expected
                    + ")");
        };
        using WK = api::PodController::Kind;
        if (kind == "Node" || kind == "Pod" || kind == "Namespace" || kind == "Service") {
            if (apiVersion != "v1")
                return wrongVersion("v1");
            if (kind == "Namespace") {
                api::Namespace ns;
                if (readNamespace(r, root, ns))
                    m_objects.namespaces.push_back(std::move(ns));
            } else if (kind == "Service") {
                api::Service svc;
                if (readService(r, root, svc))
                    m_objects.services.push_back(std::move(svc));
            } else if (kind == "Node") {
                api::Node n;
                if (readNode(r, root, n))
                    m_objects.nodes.push_back(std::move(n));
            } else {
                api::Pod pod;
                if (readPod(r, root, pod))
                    m_objects.pods.push_back(std::move(pod));
            }
        } else if (kind == "Job" || kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet") {
            const char* expected = kind == "Job" ? "batch/v1" : "apps/v1";
            if (apiVersion != expected)
                return wrongVersion(expected);
            const WK wk = kind == "Job" ? WK::Job
                : kind == "Deployment"  ? WK::Deployment
                : kind == "ReplicaSet"  ? WK::ReplicaSet
                                        : WK::StatefulSet;
            api::PodController w;
            if (readPodController(r, root, wk, w))
                m_objects.controllers.push_back(std::move(w));
        } else if (kind == "ResourceSlice" || kind == "DeviceClass" || kind == "ResourceClaim"
            || kind == "ResourceClaimTemplate") {
            if (!resourceVersion(apiVersion, rv))
                return wrongVersion("resource.k8s.io/v1, v1beta2 or v1beta1");
            if (kind == "ResourceSlice") {
                api::ResourceSlice s;
                if (readResourceSlice(r, root, rv, s))
                    m_objects.resourceSlices.push_back(std::move(s));
            } else if (kind == "DeviceClass") {
                api::DeviceClass c;
                if (readDeviceClass(r, root, rv, c))
                    m_objects.deviceClasses.push_back(std::move(c));
            } else if (kind == "ResourceClaim") {
                api::ResourceClaim c;
                if (readResourceClaim(r, root, rv, c))
                    m_objects.resourceClaims.push_back(std::move(c));
            } else {
                api::ResourceClaimTemplate t;
                if (readResourceClaimTemplate(r, root, rv, t))
                    m_objects.resourceClaimTemplates.push_back(std::move(t));
            }
        } else if (kind == "DeviceTaintRule") {
            if (!deviceTaintRuleServed(r, avNode, apiVersion))
                return;
            api::DeviceTaintRule rule;
            if (readDeviceTaintRule(r, root, rule))
                m_objects.deviceTaintRules.push_back(std::move(rule));
        } else if (kind == "PodDisruptionBudget") {
            // policy/v1beta1 was removed in Kubernetes 1.25.
            if (apiVersion != "policy/v1")
                return wrongVersion("policy/v1");
            api::PodDisruptionBudget pdb;
            if (readPodDisruptionBudget(r, root, pdb))
                m_objects.podDisruptionBudgets.push_back(std::move(pdb));
        } else if (isSchedulingKind(kind) && apiVersion.starts_with("scheduling.k8s.io/")) {
            loadSchedulingObject(r, root, avNode, kind, apiVersion);
        } else {
            r.warning(
                root, Path {}, "skipped: drasim does not model kind \"" + kind + "\" (" + apiVersion + ")");
        }
    }

    // DeviceTaintRule exists in v1alpha3 (since 1.33), v1beta2 (since 1.36) and v1 (since 1.37),
    // never in v1beta1, and is served only with DRADeviceTaintRules on (off by default before 1.37).
    bool deviceTaintRuleServed(Reader& r, uint32_t avNode, const std::string& apiVersion)
    {
        const bool v1 = m_gates.version() >= api::KubernetesVersion::V1_37;
        const std::string noMatch
            = "no matches for kind \"DeviceTaintRule\" in version \"" + apiVersion + "\"";
        if (apiVersion != "resource.k8s.io/v1alpha3" && apiVersion != "resource.k8s.io/v1beta2"
            && (!v1 || apiVersion != "resource.k8s.io/v1")) {
            r.error(avNode, Path {}.field("apiVersion"),
                noMatch
                    + (v1 ? " (expected resource.k8s.io/v1, v1beta2 or v1alpha3)"
                          : " (expected resource.k8s.io/v1beta2 or v1alpha3)"));
            return false;
        }
        if (!m_gates.enabled("DRADeviceTaintRules")) {
            r.error(avNode, Path {}.field("apiVersion"),
                noMatch + " (Kubernetes " + api::kubernetesVersionName(m_gates.version())
                    + " serves it only with the feature gate DRADeviceTaintRules on)");
            return false;
        }
        return true;
    }

    void loadSchedulingObject(
        Reader& r, uint32_t root, uint32_t avNode, const std::string& kind, const std::string& apiVersion)
    {
        std::string refusal;
        const auto v = servedSchedulingVersion(kind, apiVersion, m_gates, refusal);
        if (!v) {
            r.error(avNode, Path {}.field("apiVersion"), refusal);
            return;
        }
        if (kind == "Workload") {
            api::Workload w;
            if (readWorkload(r, root, *v, w))
                m_objects.workloads.push_back(std::move(w));
        } else if (kind == "PodGroup") {
            api::PodGroup g;
            if (readPodGroup(r, root, *v, g))
                m_objects.podGroups.push_back(std::move(g));
        } else if (kind == "CompositePodGroup") {
            api::CompositePodGroup g;
            if (readCompositePodGroup(r, root, *v, g))
                m_objects.compositePodGroups.push_back(std::move(g));
        } else {
            api::PriorityClass pc;
            if (readPriorityClass(r, root, pc))
                m_objects.priorityClasses.push_back(std::move(pc));
        }
    }

    api::ObjectSet& m_objects;
    Diagnostics& m_diags;
    const std::string& m_file;
    const api::FeatureGates& m_gates;
    const LoadControl* m_control;
    size_t m_documents = 0;
};

// Inputs from this size on are worth splitting (kubectl dumps of large clusters).
constexpr size_t kParallelThreshold = size_t(1) << 20;

// Parses the items of a large List on several threads. Returns false, having changed nothing,
// when the text does not split cleanly or any piece has a YAML-level problem: the caller then
// parses the whole text, so diagnostics are exactly those of a serial parse. Results are merged
// in item order, so the outcome does not depend on the number of threads.
bool loadListInParallel(std::string_view text, const std::string& fileName, const LoadOptions& options,
    const LoadControl& control, api::ObjectSet& objects, Diagnostics& diags)
{
    const unsigned hardware = std::thread::hardware_concurrency();
    if (hardware < 2)
        return false;
    auto split = splitTopLevelList(text);
    if (!split)
        return false;
    {
        // The List wrapper itself must be clean (kind List, known keys, valid YAML).
        Diagnostics scratch(options.maxErrors);
        api::ObjectSet none;
        DocumentLoader wrapper(none, scratch, fileName, options.gates);
        const bool ok = lean::parseDocuments(split->skeleton, fileName, scratch, options.yaml,
            [&](lean::Document& doc) { wrapper.load(doc); });
        if (!ok || scratch.hasErrors() || !scratch.all().empty())
            return false;
    }
    const size_t threads = std::min<size_t>({ size_t(hardware), size_t(8), split->items.size() });
    struct Part
    {
        api::ObjectSet objects;
        Diagnostics diags;
        bool yamlOk = true;
    };
    std::vector<Part> parts;
    for (size_t t = 0; t < threads; ++t)
        parts.push_back(Part { {}, Diagnostics(options.maxErrors), true });
    auto work = [&](size_t t) {
        Part& part = parts[t];
        const size_t begin = split->items.size() * t / threads, end = split->items.size() * (t + 1) / threads;
        DocumentLoader loader(part.objects, part.diags, fileName, options.gates);
        Diagnostics yamlDiags(1);
        for (size_t i = begin; i < end && part.yamlOk && !control.cancelled(); ++i) {
            const auto& item = split->items[i];
            part.yamlOk = lean::parseDocuments(
                item.text, fileName, yamlDiags, options.yaml,
                [&](lean::Document& doc) { loader.loadListItems(doc); }, item.lineOffset);
            // The first share runs on the calling thread: it alone reports, as if its pace
            // were every thread's.
            if (t == 0)
                control.reached(size_t(double(text.size()) * double(i + 1 - begin) / double(end - begin)));
        }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool)
        th.join();
    control.stopIfCancelled();
    for (const auto& part : parts)
        if (!part.yamlOk)
            return false;
    for (auto& part : parts) {
        objects.append(std::move(part.objects));
        diags.append(part.diags);
    }
    return true;
}

void loadInto(std::string_view text, const std::string& fileName, const LoadOptions& options,
    const LoadControl& control, api::ObjectSet& objects, Diagnostics& diags)
{
    if (text.size() > options.maxFileBytes) {
        diags.error(SourcePos { fileName, 0, 0 }, "", "", "",
            "file is " + std::to_string(text.size()) + " bytes, more than the limit of "
                + std::to_string(options.maxFileBytes) + " bytes");
        return;
    }
    if (options.parallel && text.size() >= kParallelThreshold
        && loadListInParallel(text, fileName, options, control, objects, diags))
        return;
    DocumentLoader loader(objects, diags, fileName, options.gates, &control);
    const bool ok = lean::parseDocuments(text, fileName, diags, options.yaml, [&](lean::Document& doc) {
        control.stopIfCancelled();
        loader.load(doc);
        control.reached(doc.nodes.back().inputOffset);
    });
    if (ok && loader.documents() == 0)
        diags.warning(
            SourcePos { fileName, 0, 0 }, "", "", "", "contains no Kubernetes objects (empty file)");
}

// Kubernetes rejects a second object with the same kind and name (AlreadyExists).
template <typename T> void rejectDuplicates(std::vector<T>& list, const char* kind, Diagnostics& diags)
{
    std::map<std::string, const T*> seen;
    std::vector<T> kept;
    kept.reserve(list.size());
    std::vector<bool> drop(list.size(), false);
    for (size_t i = 0; i < list.size(); ++i) {
        const auto key = list[i].meta.key();
        auto [it, inserted] = seen.emplace(key, &list[i]);
        if (!inserted) {
            const SourcePos& first = it->second->meta.pos;
            diags.error(list[i].meta.pos, kind, key, "metadata.name",
                "Duplicate value: \"" + list[i].meta.name + "\": already defined at " + first.file + ":"
                    + std::to_string(first.line));
            drop[i] = true;
        }
    }
    for (size_t i = 0; i < list.size(); ++i)
        if (!drop[i])
            kept.push_back(std::move(list[i]));
    list = std::move(kept);
}

void rejectDuplicateControllers(std::vector<api::PodController>& list, Diagnostics& diags)
{
    std::map<std::pair<int, std::string>, const api::PodController*> seen;
    std::vector<api::PodController> kept;
    for (auto& w : list) {
        auto [it, inserted] = seen.emplace(std::make_pair(int(w.kind), w.meta.key()), &w);
        if (!inserted) {
            diags.error(w.meta.pos, api::podControllerKindName(w.kind), w.meta.key(), "metadata.name",
                "Duplicate value: \"" + w.meta.name + "\": already defined at " + it->second->meta.pos.file
                    + ":" + std::to_string(it->second->meta.pos.line));
            continue;
        }
    }
    std::map<std::pair<int, std::string>, bool> taken;
    for (auto& w : list)
        if (taken.emplace(std::make_pair(int(w.kind), w.meta.key()), true).second)
            kept.push_back(std::move(w));
    list = std::move(kept);
}

// The Priority admission plugin admits one globalDefault PriorityClass: a second one is refused
// ("PriorityClass X is already marked as default. Only one default can exist").
void rejectSecondGlobalDefault(std::vector<api::PriorityClass>& list, Diagnostics& diags)
{
    const api::PriorityClass* first = nullptr;
    std::vector<api::PriorityClass> kept;
    for (auto& pc : list) {
        if (pc.globalDefault && first) {
            diags.error(pc.meta.pos, "PriorityClass", pc.meta.name, "globalDefault",
                "Forbidden: PriorityClass " + first->meta.name
                    + " is already marked as default. Only one default can exist");
            continue;
        }
        if (pc.globalDefault)
            first = &pc;
        kept.push_back(pc);
    }
    list = std::move(kept);
}

void finish(LoadResult& result, const LoadOptions& options)
{
    auto& o = result.objects;
    rejectDuplicates(o.namespaces, "Namespace", result.diagnostics);
    rejectDuplicates(o.nodes, "Node", result.diagnostics);
    rejectDuplicates(o.pods, "Pod", result.diagnostics);
    rejectDuplicates(o.services, "Service", result.diagnostics);
    rejectDuplicateControllers(o.controllers, result.diagnostics);
    rejectDuplicates(o.resourceSlices, "ResourceSlice", result.diagnostics);
    rejectDuplicates(o.deviceClasses, "DeviceClass", result.diagnostics);
    rejectDuplicates(o.resourceClaims, "ResourceClaim", result.diagnostics);
    rejectDuplicates(o.resourceClaimTemplates, "ResourceClaimTemplate", result.diagnostics);
    rejectDuplicates(o.deviceTaintRules, "DeviceTaintRule", result.diagnostics);
    rejectDuplicates(o.workloads, "Workload", result.diagnostics);
    rejectDuplicates(o.podGroups, "PodGroup", result.diagnostics);
    rejectDuplicates(o.compositePodGroups, "CompositePodGroup", result.diagnostics);
    rejectDuplicates(o.priorityClasses, "PriorityClass", result.diagnostics);
    rejectSecondGlobalDefault(o.priorityClasses, result.diagnostics);
    rejectDuplicates(o.podDisruptionBudgets, "PodDisruptionBudget", result.diagnostics);
    rejectUnauthorizedAdminAccess(o, result.diagnostics);
    admitPriorities(o, options.priorityClasses, options.gates, result.diagnostics);
}

bool manifestExtension(const std::filesystem::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

} // namespace

LoadResult loadText(std::string_view text, const std::string& fileName, const LoadOptions& options)
{
    LoadResult result { {}, Diagnostics(options.maxErrors) };
    LoadControl control(options, text.size());
    try {
        control.stopIfCancelled();
        loadInto(text, fileName, options, control, result.objects, result.diagnostics);
        control.fileDone(text.size());
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    }
    finish(result, options);
    return result;
}

LoadResult loadPaths(const std::vector<std::string>& paths, const LoadOptions& options)
{
    namespace fs = std::filesystem;
    LoadResult result { {}, Diagnostics(options.maxErrors) };
    std::vector<std::string> files;
    for (const auto& path : paths) {
        std::error_code ec;
        if (path != "-" && fs::is_directory(path, ec)) {
            std::vector<std::string> found;
            fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
            for (; !ec && it != end; it.increment(ec)) {
                const auto name = it->path().filename().string();
                if (!name.empty() && name[0] == '.') {
                    if (it->is_directory(ec))
                        it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file(ec) && manifestExtension(it->path()))
                    found.push_back(it->path().string());
            }
            if (ec)
                result.diagnostics.error(
                    SourcePos { path, 0, 0 }, "", "", "", "cannot read directory: " + ec.message());
            std::sort(found.begin(), found.end());
            if (found.empty() && !ec)
                result.diagnostics.warning(SourcePos { path, 0, 0 }, "", "", "",
                    "no *.yaml, *.yml or *.json files in this directory");
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(path);
        }
    }
    size_t totalBytes = 0;
    if (options.progress)
        for (const auto& file : files) {
            std::error_code ec;
            const auto size = file == "-" ? 0 : fs::file_size(file, ec);
            totalBytes += ec ? 0 : size_t(size);
        }
    LoadControl control(options, totalBytes);
    try {
        for (const auto& file : files) {
            if (result.diagnostics.full())
                break;
            control.stopIfCancelled();
            std::string text, error;
            const std::string shown = file == "-" ? "<stdin>" : file;
            if (!readFile(file, text, &error, options.maxFileBytes)) {
                result.diagnostics.error(SourcePos { shown, 0, 0 }, "", "", "", "cannot read file: " + error);
                continue;
            }
            loadInto(text, shown, options, control, result.objects, result.diagnostics);
            control.fileDone(text.size());
        }
    } catch (const LoadCancelled&) {
        result.cancelled = true;
    }
    finish(result, options);
    return result;
}

} // namespace drasim::yamlio
