// SPDX-License-Identifier: Apache-2.0
#include "core/workload/alibaba_trace.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "core/workload/arrival_process.h"
#include "core/workload/csv_reader.h"
#include "core/workload/duration_sampler.h"
#include "core/workload/trace_file_cache.h"

namespace drasim::workload {

namespace {

constexpr const char* kPodKind = "TracePod";
constexpr const char* kNodeKind = "TraceNode";
const std::string kTaskName = "main"; ///< a trace job's one task

/// Column lookup by header name.
class Header
{
public:
    explicit Header(const CsvRow& row)
    {
        for (size_t i = 0; i < row.fields.size(); ++i)
            m_index.emplace(row.fields[i], i);
        m_size = row.fields.size();
    }
    std::optional<size_t> find(const std::string& name) const
    {
        auto it = m_index.find(name);
        return it == m_index.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
    size_t size() const { return m_size; }

private:
    std::map<std::string, size_t> m_index;
    size_t m_size = 0;
};

/// Field access with located errors for one row.
class RowReader
{
public:
    RowReader(const CsvRow& row, const std::string& file, const char* kind, Diagnostics& diags)
        : m_row(row)
        , m_file(file)
        , m_kind(kind)
        , m_diags(diags)
    { }
    void setName(const std::string& name) { m_name = name; }
    bool failed() const { return m_failed; }

    const std::string& text(size_t i) const { return m_row.fields[i]; }

    void error(size_t i, const std::string& column, const std::string& msg)
    {
        m_diags.error(m_row.pos(m_file, i), m_kind, m_name, column, msg);
        m_failed = true;
    }

    int64_t integer(size_t i, const std::string& column, int64_t min, int64_t max)
    {
        const std::string& s = m_row.fields[i];
        int64_t v = 0;
        auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size()) {
            error(i, column, "expected an integer, got \"" + s + "\"");
            return 0;
        }
        if (v < min || v > max) {
            error(i, column,
                "value " + s + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
            return 0;
        }
        return v;
    }

    std::optional<double> seconds(size_t i, const std::string& column, bool allowEmpty)
    {
        const std::string& s = m_row.fields[i];
        if (s.empty()) {
            if (!allowEmpty)
                error(i, column, "missing time");
            return std::nullopt;
        }
        double v = 0;
        auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        if (res.ec != std::errc() || res.ptr != s.data() + s.size() || !std::isfinite(v) || v < 0) {
            error(i, column, "expected a non-negative number of seconds, got \"" + s + "\"");
            return std::nullopt;
        }
        return v;
    }

private:
    const CsvRow& m_row;
    const std::string& m_file;
    const char* m_kind;
    Diagnostics& m_diags;
    std::string m_name;
    bool m_failed = false;
};

/// The labels of the rows with one qos and phase, made once per pair (a trace has a handful).
class RowLabels
{
public:
    std::shared_ptr<const api::Labels> of(const std::string& qos, const std::string& phase)
    {
        if (qos.empty() && phase.empty())
            return nullptr;
        for (const Known& k : m_known)
            if (k.qos == qos && k.phase == phase)
                return k.labels;
        auto labels = std::make_shared<api::Labels>();
        if (!qos.empty())
            (*labels)["drasim.dev/qos"] = qos;
        if (!phase.empty())
            (*labels)["drasim.dev/trace-phase"] = phase;
        m_known.push_back(Known { qos, phase, labels });
        return labels;
    }

private:
    struct Known
    {
        std::string qos;
        std::string phase;
        std::shared_ptr<const api::Labels> labels;
    };
    std::vector<Known> m_known;
};

std::optional<std::vector<size_t>> requireColumns(const Header& header, const std::vector<std::string>& names,
    const std::string& path, int line, const char* kind, Diagnostics& diags)
{
    std::vector<size_t> out;
    for (const std::string& n : names) {
        auto i = header.find(n);
        if (!i) {
            std::string list;
            for (const std::string& m : names)
                list += (list.empty() ? "" : ",") + m;
            diags.error(SourcePos { path, line, 1 }, kind, "", "",
                "header lacks column \"" + n + "\" (need " + list + ")");
            return std::nullopt;
        }
        out.push_back(*i);
    }
    return out;
}

class AlibabaSource final : public ArrivalSource
{
public:
    AlibabaSource(const WorkloadSpec& spec, std::shared_ptr<const AlibabaPodList> list, uint64_t seed)
        : m_spec(spec)
        , m_trace(*spec.trace)
        , m_list(std::move(list))
        , m_factory(spec.namespace_, m_trace.gpuSpec, m_trace.sharing, m_trace.partitionsPerGpu)
        , m_arrivals(spec.arrival.value_or(ArrivalSpec {}), mixSeed(seed, 1))
        , m_durationRng(mixSeed(seed, 3))
    {
        if (!m_trace.deviceClass.empty())
            m_factory.setDeviceClass(m_trace.deviceClass);
        m_useTimes = m_list->hasTimes && m_trace.useTraceTimes;
        if (spec.duration)
            m_duration.emplace(*spec.duration);
        m_shapePods.resize(m_list->shapes);
        // Trace times drive the order; the published files are sorted already, a stable sort
        // keeps file order for equal times and protects against edited files.
        // The rows are shared with other runs of the file, so the order is an index of its own.
        m_order.resize(m_list->rows.size());
        for (size_t i = 0; i < m_order.size(); ++i)
            m_order[i] = uint32_t(i);
        if (m_useTimes)
            std::stable_sort(m_order.begin(), m_order.end(), [&rows = m_list->rows](uint32_t a, uint32_t b) {
                return *rows[a].creation < *rows[b].creation;
            });
    }

    std::optional<JobSpec> next() override
    {
        // Every return gives back `out`, so it is built where the caller gets it (a JobSpec
        // returned by value into the optional would cost a move per job).
        std::optional<JobSpec> out;
        const std::optional<double> at = nextArrival();
        if (!at)
            return out;
        const AlibabaPodRow& row = m_list->rows[m_order[m_next]];
        ++m_next;
        JobSpec& job = out.emplace();
        job.name = row.name;
        job.namespace_ = m_spec.namespace_;
        job.workload = m_spec.name;
        job.arrivalSeconds = *at; // kind stays a JobSpec's default, kKindJob
        job.parallelism = 1;
        job.completions = 1;
        job.backoffLimit = 0;
        job.labels = row.labels;
        TaskSpec& task = job.tasks.emplace_back();
        task.name = kTaskName;
        if (m_duration)
            task.durationSeconds = m_duration->sample(m_durationRng);
        else if (row.deletion)
            task.durationSeconds
                = (*row.deletion - row.scheduled.value_or(*row.creation)) * m_trace.timeScale;
        else
            task.durationSeconds = kForever;
        // A run meets each shape's template once in its factory (which emits the claim template
        // then), and by its index from then on.
        std::shared_ptr<const api::PodTemplateSpec>& pod = m_shapePods[row.shape];
        if (pod) {
            task.pod = pod;
        } else {
            m_factory.fill(job, row.cpuMilli, row.memoryMiB, row.gpu);
            pod = job.tasks[0].pod;
        }
        return out;
    }

private:
    /// When the next row arrives; nullopt once the stream is over (the trace, `until` or `count`
    /// reached, or the arrival process ended).
    std::optional<double> nextArrival()
    {
        if (m_next >= m_order.size())
            return std::nullopt;
        if (!m_useTimes) {
            auto t = m_arrivals.next();
            if (!t)
                m_next = m_order.size();
            return t;
        }
        const AlibabaPodRow& row = m_list->rows[m_order[m_next]];
        const double start = m_spec.arrival ? m_spec.arrival->start : 0.0;
        const double at = start + *row.creation * m_trace.timeScale;
        // `until` and `count` cut the trace as they bound a generator ("the first day").
        const bool pastUntil = m_spec.arrival && m_spec.arrival->until && at >= *m_spec.arrival->until;
        const bool pastCount = m_spec.arrival && m_spec.arrival->count && m_next >= *m_spec.arrival->count;
        if (pastUntil || pastCount) {
            m_next = m_order.size();
            return std::nullopt;
        }
        return at;
    }

    WorkloadSpec m_spec;
    TraceSpec m_trace;
    std::shared_ptr<const AlibabaPodList> m_list;
    std::vector<uint32_t> m_order; ///< rows in arrival order
    std::vector<std::shared_ptr<const api::PodTemplateSpec>> m_shapePods; ///< by row shape, once met
    TracePodFactory m_factory;
    ArrivalProcess m_arrivals;
    Rng m_durationRng;
    std::optional<DurationSampler> m_duration;
    bool m_useTimes = false;
    size_t m_next = 0;
};

} // namespace

std::optional<AlibabaPodList> readAlibabaPods(
    const std::string& path, Diagnostics& diags, std::optional<uint64_t> limit)
{
    CsvReader reader(path);
    if (!reader.ok()) {
        diags.error(SourcePos { path, 0, 0 }, kPodKind, "", "", reader.error());
        return std::nullopt;
    }
    auto headerRow = reader.next(diags, kPodKind);
    if (!headerRow) {
        diags.error(SourcePos { path, 1, 1 }, kPodKind, "", "", "empty file: expected a header line");
        return std::nullopt;
    }
    const Header header(*headerRow);
    auto cols = requireColumns(header, { "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli" }, path,
        headerRow->line, kPodKind, diags);
    if (!cols)
        return std::nullopt;
    const auto cSpec = header.find("gpu_spec");
    const auto cQos = header.find("qos");
    const auto cPhase = header.find("pod_phase");
    const auto cCreate = header.find("creation_time");
    const auto cDelete = header.find("deletion_time");
    const auto cSched = header.find("scheduled_time");

    AlibabaPodList list;
    list.hasTimes = cCreate && cDelete;
    std::map<std::string, int> seen; // name → line, for duplicates
    RowLabels labels;
    std::map<TracePodFactory::RowShape, uint32_t> shapes;
    while (auto row = reader.next(diags, kPodKind)) {
        if (limit && list.rows.size() >= *limit)
            break;
        if (diags.full())
            break;
        RowReader r(*row, path, kPodKind, diags);
        if (row->fields.size() != header.size()) {
            diags.error(row->pos(path, 0), kPodKind, row->fields[0], "",
                "expected " + std::to_string(header.size()) + " fields, found "
                    + std::to_string(row->fields.size()));
            continue;
        }
        AlibabaPodRow p;
        p.name = r.text((*cols)[0]);
        p.pos = row->pos(path, 0);
        r.setName(p.name);
        if (!validTraceName(p.name))
            r.error((*cols)[0], "name",
                "\"" + p.name + "\" is not a valid object name (lowercase DNS subdomain)");
        else if (auto [it, fresh] = seen.emplace(p.name, row->line); !fresh)
            r.error(
                (*cols)[0], "name", "duplicate pod name (first on line " + std::to_string(it->second) + ")");
        p.cpuMilli = r.integer((*cols)[1], "cpu_milli", 0, int64_t(1) << 40);
        p.memoryMiB = r.integer((*cols)[2], "memory_mib", 0, int64_t(1) << 30);
        p.gpu.count = int32_t(r.integer((*cols)[3], "num_gpu", 0, 128));
        const int64_t milli = r.integer((*cols)[4], "gpu_milli", 0, 1000);
        if (p.gpu.count == 1 && milli == 0 && !r.failed())
            r.error((*cols)[4], "gpu_milli", "must be 1..1000 when num_gpu is 1");
        // Decision: gpu_milli only means a share for single-GPU pods (README); multi-GPU pods take
        // whole GPUs whatever the column says, CPU-only pods ignore it.
        p.gpu.milli = p.gpu.count == 1 ? int32_t(milli) : 1000;
        if (cSpec)
            p.gpu.models = splitGpuSpec(r.text(*cSpec));
        if (cQos)
            p.qos = r.text(*cQos);
        if (cPhase)
            p.phase = r.text(*cPhase);
        if (list.hasTimes) {
            p.creation = r.seconds(*cCreate, "creation_time", false);
            p.deletion = r.seconds(*cDelete, "deletion_time", false);
            if (cSched)
                p.scheduled = r.seconds(*cSched, "scheduled_time", true);
            if (p.creation && p.deletion && *p.deletion < *p.creation)
                r.error(*cDelete, "deletion_time", "deletion_time is before creation_time");
            if (p.scheduled && p.deletion && (*p.scheduled < *p.creation || *p.scheduled > *p.deletion))
                r.error(
                    *cSched, "scheduled_time", "scheduled_time is outside [creation_time, deletion_time]");
        }
        if (r.failed())
            continue;
        p.labels = labels.of(p.qos, p.phase);
        TracePodFactory::RowShape shape { p.cpuMilli, p.memoryMiB, p.gpu.count, p.gpu.milli, p.gpu.models };
        p.shape = shapes.try_emplace(std::move(shape), uint32_t(shapes.size())).first->second;
        list.rows.push_back(std::move(p));
    }
    list.shapes = uint32_t(shapes.size());
    return list;
}

std::optional<std::vector<TraceGpuNode>> readAlibabaNodes(const std::string& path, Diagnostics& diags)
{
    CsvReader reader(path);
    if (!reader.ok()) {
        diags.error(SourcePos { path, 0, 0 }, kNodeKind, "", "", reader.error());
        return std::nullopt;
    }
    auto headerRow = reader.next(diags, kNodeKind);
    if (!headerRow) {
        diags.error(SourcePos { path, 1, 1 }, kNodeKind, "", "", "empty file: expected a header line");
        return std::nullopt;
    }
    const Header header(*headerRow);
    auto cols = requireColumns(
        header, { "sn", "cpu_milli", "memory_mib", "gpu", "model" }, path, headerRow->line, kNodeKind, diags);
    if (!cols)
        return std::nullopt;
    std::vector<TraceGpuNode> nodes;
    std::map<std::string, int> seen;
    while (auto row = reader.next(diags, kNodeKind)) {
        if (diags.full())
            break;
        if (row->fields.size() != header.size()) {
            diags.error(row->pos(path, 0), kNodeKind, row->fields[0], "",
                "expected " + std::to_string(header.size()) + " fields, found "
                    + std::to_string(row->fields.size()));
            continue;
        }
        RowReader r(*row, path, kNodeKind, diags);
        TraceGpuNode n;
        n.name = r.text((*cols)[0]);
        n.pos = row->pos(path, 0);
        r.setName(n.name);
        if (!validTraceName(n.name))
            r.error(
                (*cols)[0], "sn", "\"" + n.name + "\" is not a valid node name (lowercase DNS subdomain)");
        else if (auto [it, fresh] = seen.emplace(n.name, row->line); !fresh)
            r.error(
                (*cols)[0], "sn", "duplicate node name (first on line " + std::to_string(it->second) + ")");
        n.cpuMilli = r.integer((*cols)[1], "cpu_milli", 0, int64_t(1) << 40);
        n.memoryMiB = r.integer((*cols)[2], "memory_mib", 0, int64_t(1) << 30);
        // 8 GPUs per node in the trace; 63 keeps the partitions layout within slice limits.
        n.gpus = int32_t(r.integer((*cols)[3], "gpu", 0, 63));
        n.model = r.text((*cols)[4]);
        if (n.gpus > 0 && n.model.empty())
            r.error((*cols)[4], "model", "a node with GPUs needs a model");
        if (r.failed())
            continue;
        nodes.push_back(std::move(n));
    }
    return nodes;
}

std::optional<api::ObjectSet> loadTraceCluster(const TraceClusterSpec& spec, Diagnostics& diags)
{
    if (spec.sharing == GpuSharing::Partitions) {
        if (std::string err = validatePartitions(spec.partitionsPerGpu); !err.empty()) {
            diags.error(spec.pos, "Cluster", "", "trace.partitionsPerGpu", err);
            return std::nullopt;
        }
    }
    const size_t before = diags.errorCount();
    auto nodes = readAlibabaNodes(spec.nodesPath, diags);
    if (!nodes || diags.errorCount() > before)
        return std::nullopt;
    return traceClusterObjects(*nodes, spec.sharing, spec.partitionsPerGpu);
}

std::unique_ptr<ArrivalSource> makeAlibabaSource(const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags)
{
    const TraceSpec& trace = *spec.trace;
    if (trace.sharing == GpuSharing::Partitions) {
        if (std::string err = validatePartitions(trace.partitionsPerGpu); !err.empty()) {
            diags.error(trace.pos, "Workload", spec.name, "trace.partitionsPerGpu", err);
            return nullptr;
        }
    }
    // Decision: any bad row fails the workload. Silently dropping rows would change the load.
    auto list = sharedAlibabaPods(trace.path, diags, trace.limit);
    if (!list)
        return nullptr;
    return std::make_unique<AlibabaSource>(spec, std::move(list), seed);
}

} // namespace drasim::workload
