// SPDX-License-Identifier: Apache-2.0
#include "core/workload/csv_trace.h"

#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "core/workload/arrival_process.h"
#include "core/workload/csv_reader.h"
#include "core/workload/duration_sampler.h"
#include "core/workload/time_text.h"
#include "core/workload/trace_mapping.h"

namespace drasim::workload {

namespace {

constexpr const char* kRowKind = "TraceJob";

const std::set<std::string>& knownColumns()
{
    static const std::set<std::string> k
        = { "name", "arrival", "duration", "kind", "parallelism", "completions", "backoff_limit", "priority",
              "cpu", "memory", "gpus", "gpu_milli", "gpu_models", "device_class", "selector" };
    return k;
}

class CsvTraceSource final : public ArrivalSource
{
public:
    CsvTraceSource(const WorkloadSpec& spec, std::unique_ptr<CsvReader> reader,
        std::map<std::string, size_t> columns, size_t columnCount, uint64_t seed, Diagnostics& diags)
        : m_spec(spec)
        , m_trace(*spec.trace)
        , m_reader(std::move(reader))
        , m_cols(std::move(columns))
        , m_diags(diags)
        , m_factory(spec.namespace_, m_trace.gpuSpec, m_trace.sharing, m_trace.partitionsPerGpu)
        , m_arrivals(spec.arrival.value_or(ArrivalSpec {}), mixSeed(seed, 1))
        , m_durationRng(mixSeed(seed, 3))
        , m_columnCount(columnCount)
    {
        m_useTimes = m_cols.count("arrival") && m_trace.useTraceTimes;
        if (spec.duration)
            m_default.emplace(*spec.duration);
    }

    std::optional<JobSpec> next() override
    {
        while (!m_done) {
            if (m_trace.limit && m_rows >= *m_trace.limit)
                break;
            if (m_diags.full())
                break;
            auto row = m_reader->next(m_diags, kRowKind);
            if (!row)
                break;
            auto job = mapRow(*row);
            if (job)
                return job;
        }
        m_done = true;
        return std::nullopt;
    }

private:
    const std::string* cell(const CsvRow& row, const char* column, size_t* index = nullptr) const
    {
        auto it = m_cols.find(column);
        if (it == m_cols.end() || row.fields[it->second].empty())
            return nullptr;
        if (index)
            *index = it->second;
        return &row.fields[it->second];
    }

    void error(const CsvRow& row, const char* column, const std::string& name, const std::string& msg)
    {
        auto it = m_cols.find(column);
        m_diags.error(
            row.pos(m_reader->path(), it == m_cols.end() ? 0 : it->second), kRowKind, name, column, msg);
        m_rowFailed = true;
    }

    int64_t integer(
        const CsvRow& row, const char* column, const std::string& name, int64_t def, int64_t min, int64_t max)
    {
        const std::string* s = cell(row, column);
        if (!s)
            return def;
        int64_t v = 0;
        auto res = std::from_chars(s->data(), s->data() + s->size(), v);
        if (res.ec != std::errc() || res.ptr != s->data() + s->size() || v < min || v > max) {
            error(row, column, name,
                "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got \""
                    + *s + "\"");
            return def;
        }
        return v;
    }

    std::optional<Quantity> quantity(const CsvRow& row, const char* column, const std::string& name)
    {
        const std::string* s = cell(row, column);
        if (!s)
            return std::nullopt;
        std::string err;
        auto q = Quantity::parse(*s, &err);
        if (!q)
            error(row, column, name, err);
        else if (q->sign() < 0)
            error(row, column, name, "must not be negative");
        return q;
    }

    std::optional<JobSpec> mapRow(const CsvRow& row)
    {
        m_rowFailed = false;
        const std::string name = row.fields.size() > m_cols.at("name") ? row.fields[m_cols.at("name")] : "";
        if (row.fields.size() != m_columnCount) {
            m_diags.error(row.pos(m_reader->path(), 0), kRowKind, name, "",
                "expected " + std::to_string(m_columnCount) + " fields, found "
                    + std::to_string(row.fields.size()));
            return std::nullopt;
        }
        ++m_rows;
        if (!validTraceName(name))
            error(row, "name", name, "\"" + name + "\" is not a valid object name (lowercase DNS subdomain)");
        else if (auto [it, fresh] = m_names.emplace(name, row.line); !fresh)
            error(row, "name", name, "duplicate job name (first on line " + std::to_string(it->second) + ")");

        JobSpec job;
        job.name = name;
        job.namespace_ = m_spec.namespace_;
        job.workload = m_spec.name;
        if (const std::string* k = cell(row, "kind")) {
            if (*k == "job")
                job.kind = kKindJob;
            else if (*k == "service")
                job.kind = kKindService;
            else
                error(row, "kind", name, "expected job or service, got \"" + *k + "\"");
        }
        job.parallelism = int32_t(integer(row, "parallelism", name, 1, 1, 1'000'000));
        job.completions = int32_t(
            integer(row, "completions", name, job.kind == kKindService ? job.parallelism : 1, 1, 1'000'000));
        if (job.kind == kKindService)
            job.completions = job.parallelism;
        job.backoffLimit = int32_t(integer(row, "backoff_limit", name, 0, 0, 1'000'000));

        TaskSpec task;
        task.name = "main";
        task.priority = int32_t(integer(row, "priority", name, 0, INT32_MIN, INT32_MAX));
        if (const std::string* d = cell(row, "duration")) {
            std::string err;
            auto spec = parseDurationShorthand(*d, &err);
            if (!spec)
                error(row, "duration", name, err);
            else
                task.durationSeconds = DurationSampler(*spec).sample(m_durationRng);
        } else {
            task.durationSeconds = m_default ? m_default->sample(m_durationRng) : kForever;
        }

        if (m_useTimes) {
            const std::string* a = cell(row, "arrival");
            if (!a) {
                error(row, "arrival", name, "missing arrival time");
            } else {
                std::string err;
                auto t = parseDurationSeconds(*a, &err, Forever::Rejected);
                if (!t)
                    error(row, "arrival", name, err);
                else {
                    job.arrivalSeconds
                        = (m_spec.arrival ? m_spec.arrival->start : 0.0) + *t * m_trace.timeScale;
                    if (job.arrivalSeconds < m_lastArrival)
                        error(row, "arrival", name,
                            "rows must be sorted by arrival (this row arrives before the previous one)");
                }
            }
        }

        const auto cpu = quantity(row, "cpu", name);
        const auto memory = quantity(row, "memory", name);
        const int64_t gpus = integer(row, "gpus", name, 0, 0, 1024);
        const std::string* deviceClass = cell(row, "device_class");
        const std::string* selector = cell(row, "selector");
        size_t milliIndex = 0;
        const std::string* milliText = cell(row, "gpu_milli", &milliIndex);
        const std::string* models = cell(row, "gpu_models");
        if (deviceClass && (milliText || models))
            error(row, "device_class", name,
                "device_class rows take no gpu_milli or gpu_models (use selector)");
        if (selector && !deviceClass)
            error(row, "selector", name, "selector needs device_class");
        const int64_t milli = integer(row, "gpu_milli", name, 1000, 1, 1000);
        if (milliText && milli < 1000 && gpus != 1)
            error(row, "gpu_milli", name, "a GPU share (gpu_milli < 1000) needs gpus = 1");
        if (deviceClass && gpus == 0)
            error(row, "gpus", name, "device_class needs gpus >= 1");
        if (m_rowFailed)
            return std::nullopt;

        if (!m_useTimes) {
            auto t = m_arrivals.next();
            if (!t) {
                m_done = true;
                return std::nullopt;
            }
            job.arrivalSeconds = *t;
        } else if (m_spec.arrival
            && ((m_spec.arrival->until && job.arrivalSeconds >= *m_spec.arrival->until)
                || (m_spec.arrival->count && m_emitted >= *m_spec.arrival->count))) {
            // `until` and `count` cut a timed trace as they bound a generator.
            m_done = true;
            return std::nullopt;
        }
        ++m_emitted;
        m_lastArrival = job.arrivalSeconds;

        job.tasks.push_back(std::move(task));
        if (!deviceClass) {
            TraceGpuDemand demand;
            demand.count = int32_t(gpus);
            demand.milli = int32_t(milli);
            if (models)
                demand.models = splitGpuSpec(*models);
            m_factory.fill(job, cpu, memory, demand);
        } else {
            fillClassRequest(job, cpu, memory, *deviceClass, gpus, selector ? *selector : std::string());
        }
        return job;
    }

    void fillClassRequest(JobSpec& job, const std::optional<Quantity>& cpu,
        const std::optional<Quantity>& memory, const std::string& deviceClass, int64_t count,
        const std::string& selector)
    {
        const std::string claimKey = deviceClass + "\n" + std::to_string(count) + "\n" + selector;
        auto t = m_classTemplates.find(claimKey);
        if (t == m_classTemplates.end()) {
            const std::string name = m_spec.name + "-claim-" + std::to_string(m_classTemplates.size());
            t = m_classTemplates.emplace(claimKey, name).first;
            api::ResourceClaimTemplate tmpl;
            tmpl.meta.name = name;
            tmpl.meta.namespace_ = m_spec.namespace_;
            api::DeviceRequest req;
            req.name = "devices";
            api::DeviceRequestSpec spec;
            spec.deviceClassName = deviceClass;
            spec.count = count;
            if (!selector.empty())
                spec.selectors.push_back(api::DeviceSelector { selector, {} });
            req.exactly = spec;
            tmpl.spec.requests.push_back(std::move(req));
            job.claimTemplates.push_back(std::move(tmpl));
        }
        const std::string podKey
            = t->second + "\n" + (cpu ? cpu->toString() : "") + "\n" + (memory ? memory->toString() : "");
        auto p = m_classPods.find(podKey);
        if (p == m_classPods.end()) {
            auto pod = tracePodTemplate(m_spec.namespace_, cpu, memory, t->second, "devices");
            p = m_classPods.emplace(podKey, std::move(pod)).first;
        }
        job.tasks[0].pod = p->second;
    }

    WorkloadSpec m_spec;
    TraceSpec m_trace;
    std::unique_ptr<CsvReader> m_reader;
    std::map<std::string, size_t> m_cols;
    Diagnostics& m_diags;
    TracePodFactory m_factory;
    ArrivalProcess m_arrivals;
    Rng m_durationRng;
    std::optional<DurationSampler> m_default;
    bool m_useTimes = false;
    bool m_done = false;
    bool m_rowFailed = false;
    uint64_t m_rows = 0;
    uint64_t m_emitted = 0;
    double m_lastArrival = 0;
    std::map<std::string, int> m_names;
    size_t m_columnCount;
    std::map<std::string, std::string> m_classTemplates;
    std::map<std::string, std::shared_ptr<const api::PodTemplateSpec>> m_classPods;
};

} // namespace

std::unique_ptr<ArrivalSource> makeCsvTraceSource(const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags)
{
    const TraceSpec& trace = *spec.trace;
    if (trace.sharing == GpuSharing::Partitions) {
        if (std::string err = validatePartitions(trace.partitionsPerGpu); !err.empty()) {
            diags.error(trace.pos, "Workload", spec.name, "trace.partitionsPerGpu", err);
            return nullptr;
        }
    }
    auto reader = std::make_unique<CsvReader>(trace.path);
    if (!reader->ok()) {
        diags.error(SourcePos { trace.path, 0, 0 }, kRowKind, "", "", reader->error());
        return nullptr;
    }
    auto header = reader->next(diags, kRowKind);
    if (!header) {
        diags.error(SourcePos { trace.path, 1, 1 }, kRowKind, "", "", "empty file: expected a header line");
        return nullptr;
    }
    std::map<std::string, size_t> cols;
    bool ok = true;
    for (size_t i = 0; i < header->fields.size(); ++i) {
        const std::string& n = header->fields[i];
        if (!knownColumns().count(n)) {
            std::string known;
            for (const std::string& k : knownColumns())
                known += (known.empty() ? "" : ", ") + k;
            diags.error(
                header->pos(trace.path, i), kRowKind, "", n, "unknown column \"" + n + "\"; known: " + known);
            ok = false;
        } else if (!cols.emplace(n, i).second) {
            diags.error(header->pos(trace.path, i), kRowKind, "", n, "duplicate column \"" + n + "\"");
            ok = false;
        }
    }
    if (ok && !cols.count("name")) {
        diags.error(
            header->pos(trace.path, 0), kRowKind, "", "", "header lacks the required column \"name\"");
        ok = false;
    }
    if (!ok)
        return nullptr;
    const size_t count = header->fields.size();
    return std::make_unique<CsvTraceSource>(spec, std::move(reader), std::move(cols), count, seed, diags);
}

} // namespace drasim::workload
