// SPDX-License-Identifier: Apache-2.0
#include "core/workload/workload_spec_yaml.h"

#include <cmath>
#include <fstream>
#include <set>

#include "core/workload/duration_sampler.h"
#include "core/workload/group_spec_yaml.h"
#include "core/workload/speed_table_yaml.h"
#include "core/workload/time_text.h"
#include "core/workload/trace_mapping.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::workload {

using yamlio::joinPath;
using yamlio::YamlNode;

namespace {

constexpr const char* kWorkloadKind = "Workload";

std::string resolvePath(const std::string& baseDir, const std::string& path)
{
    if (path.empty() || path.front() == '/' || baseDir.empty())
        return path;
    return baseDir.back() == '/' ? baseDir + path : baseDir + "/" + path;
}

using yamlio::DocReader;

std::optional<ArrivalSpec> arrivalFrom(const YamlNode& node, const std::string& field, DocReader& c)
{
    if (!c.isMap(node, field))
        return std::nullopt;
    ArrivalSpec a;
    a.pos = node.pos;
    const YamlNode* processNode = node.get("process");
    if (!processNode) {
        c.error(
            node, joinPath(field, "process"), "Required value: once, poisson, diurnal, bursts or schedule");
        return std::nullopt;
    }
    auto process = c.string(*processNode, joinPath(field, "process"));
    if (!process)
        return std::nullopt;
    using P = ArrivalSpec::Process;
    if (*process == "once")
        a.process = P::Once;
    else if (*process == "poisson")
        a.process = P::Poisson;
    else if (*process == "diurnal")
        a.process = P::Diurnal;
    else if (*process == "bursts")
        a.process = P::Bursts;
    else if (*process == "schedule")
        a.process = P::Schedule;
    else {
        c.error(*processNode, joinPath(field, "process"),
            "unknown process \"" + *process + "\"; expected once, poisson, diurnal, bursts or schedule");
        return std::nullopt;
    }
    const YamlNode* rateNode = nullptr;
    for (const auto& [k, v] : node.entries) {
        const std::string f = joinPath(field, k.scalar);
        if (k.scalar == "process")
            continue;
        if (k.scalar == "start") {
            if (auto t = c.duration(v, f, Forever::Rejected))
                a.start = *t;
        } else if (k.scalar == "until") {
            if (auto t = c.duration(v, f))
                a.until = *t;
        } else if (k.scalar == "count") {
            if (auto n = c.integer(v, f, 0, INT64_MAX))
                a.count = uint64_t(*n);
        } else if (k.scalar == "rate" && a.process != P::Once && a.process != P::Schedule) {
            rateNode = &v;
            auto s = c.string(v, f);
            if (!s)
                continue;
            std::string err;
            auto r = parseRatePerSecond(*s, &err);
            if (!r)
                c.error(v, f, err);
            else
                a.ratePerSecond = *r;
        } else if (k.scalar == "amplitude" && a.process == P::Diurnal) {
            if (auto n = c.number(v, f, 0, 1))
                a.amplitude = *n;
        } else if (k.scalar == "peak" && a.process == P::Diurnal) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                a.peakSeconds = *t;
        } else if (k.scalar == "period" && a.process == P::Diurnal) {
            if (auto t = c.duration(v, f, Forever::Rejected)) {
                if (*t <= 0)
                    c.error(v, f, "Invalid value: " + v.scalar + ": must be greater than 0");
                a.periodSeconds = *t;
            }
        } else if (k.scalar == "every" && (a.process == P::Bursts || a.process == P::Schedule)) {
            if (auto t = c.duration(v, f, Forever::Rejected)) {
                if (*t <= 0)
                    c.error(v, f, "Invalid value: " + v.scalar + ": must be greater than 0");
                a.every = *t;
            }
        } else if (k.scalar == "size" && a.process == P::Bursts) {
            if (auto n = c.integer(v, f, 1, 1'000'000))
                a.burstSize = uint32_t(*n);
        } else if (k.scalar == "spacing" && a.process == P::Bursts) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                a.burstSpacing = *t;
        } else if (k.scalar == "times" && a.process == P::Schedule) {
            if (!v.isSequence()) {
                c.error(v, f, "expected a list of times, got " + DocReader::describe(v));
                continue;
            }
            for (size_t i = 0; i < v.items.size(); ++i)
                if (auto t = c.duration(v.items[i], f + "[" + std::to_string(i) + "]", Forever::Rejected))
                    a.times.push_back(*t);
        } else {
            static const char* const allowed[] = {
                "process, start, until, count", // once
                "process, rate, start, until, count", // poisson
                "process, rate, amplitude, peak, period, start, until, count", // diurnal
                "process, rate, every, size, spacing, start, until, count", // bursts
                "process, times, every, start, until, count", // schedule
            };
            c.error(k, f,
                "unknown field \"" + k.scalar + "\" for process " + *process
                    + "; expected one of: " + allowed[int(a.process)]);
        }
    }
    if ((a.process == P::Poisson || a.process == P::Diurnal) && !rateNode)
        c.error(
            node, joinPath(field, "rate"), "Required value: needed by process " + *process + " (e.g. 12/h)");
    if (a.process == P::Bursts && !rateNode && !a.every)
        c.error(node, field, "bursts need `rate` (Poisson burst arrivals) or `every` (periodic bursts)");
    if (a.process == P::Bursts && rateNode && a.every)
        c.error(node, field, "bursts take `rate` or `every`, not both");
    if (a.process == P::Schedule && a.times.empty() && !a.every)
        c.error(node, field, "schedule needs `times` and/or `every`");
    if (a.process == P::Schedule && a.every && !a.until && !a.count)
        c.error(node, field, "a periodic schedule needs `until` or `count` (it would never end)");
    if ((a.process == P::Poisson || a.process == P::Diurnal || a.process == P::Bursts) && !a.until
        && !a.count)
        c.error(node, field, "process " + *process + " needs `until` or `count` (it would never end)");
    if (a.until && *a.until <= a.start && a.process != P::Once)
        c.error(node, joinPath(field, "until"), "until must be after start");
    if (!c.ok())
        return std::nullopt;
    return a;
}

std::optional<DurationSpec> durationFrom(
    const YamlNode& node, const std::string& baseDir, const std::string& field, DocReader& c)
{
    if (node.isScalar()) {
        auto s = node.asString();
        if (auto d = node.asDouble(); d && !node.quoted) {
            DurationSpec spec;
            spec.value = *d;
            spec.pos = node.pos;
            if (std::string err = validateDurationSpec(spec); !err.empty()) {
                c.error(node, field, err);
                return std::nullopt;
            }
            return spec;
        }
        std::string err;
        auto spec = parseDurationShorthand(*s, &err);
        if (!spec) {
            c.error(node, field, err);
            return std::nullopt;
        }
        spec->pos = node.pos;
        return spec;
    }
    if (!c.isMap(node, field))
        return std::nullopt;
    const YamlNode* distNode = node.get("distribution");
    if (!distNode) {
        c.error(node, joinPath(field, "distribution"),
            "Required value: fixed, exponential, lognormal, uniform or empirical");
        return std::nullopt;
    }
    auto dist = c.string(*distNode, joinPath(field, "distribution"));
    if (!dist)
        return std::nullopt;
    DurationSpec spec;
    spec.pos = node.pos;
    using D = DurationSpec::Distribution;
    const char* allowed;
    std::vector<std::string> required;
    if (*dist == "fixed") {
        spec.distribution = D::Fixed;
        allowed = "distribution, value, min, max";
        required = { "value" };
    } else if (*dist == "exponential") {
        spec.distribution = D::Exponential;
        allowed = "distribution, mean, min, max";
        required = { "mean" };
    } else if (*dist == "lognormal") {
        spec.distribution = D::Lognormal;
        allowed = "distribution, median, sigma, min, max";
        required = { "median", "sigma" };
    } else if (*dist == "uniform") {
        spec.distribution = D::Uniform;
        allowed = "distribution, low, high, min, max";
        required = { "low", "high" };
    } else if (*dist == "empirical") {
        spec.distribution = D::Empirical;
        allowed = "distribution, file, min, max";
        required = { "file" };
    } else {
        c.error(*distNode, joinPath(field, "distribution"),
            "unknown distribution \"" + *dist
                + "\"; expected fixed, exponential, lognormal, uniform or empirical");
        return std::nullopt;
    }
    for (const std::string& r : required)
        if (!node.get(r))
            c.error(node, joinPath(field, r), "Required value: needed by distribution " + *dist);
    for (const auto& [k, v] : node.entries) {
        const std::string f = joinPath(field, k.scalar);
        const std::string& key = k.scalar;
        if (key == "distribution")
            continue;
        if (key == "min") {
            if (auto t = c.duration(v, f, Forever::Rejected))
                spec.clampMin = *t;
        } else if (key == "max") {
            if (auto t = c.duration(v, f))
                spec.clampMax = *t;
        } else if (key == "value" && spec.distribution == D::Fixed) {
            if (auto t = c.duration(v, f))
                spec.value = *t;
        } else if (key == "mean" && spec.distribution == D::Exponential) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                spec.mean = *t;
        } else if (key == "median" && spec.distribution == D::Lognormal) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                spec.median = *t;
        } else if (key == "sigma" && spec.distribution == D::Lognormal) {
            if (auto n = c.number(v, f, 0, 20))
                spec.sigma = *n;
        } else if (key == "low" && spec.distribution == D::Uniform) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                spec.low = *t;
        } else if (key == "high" && spec.distribution == D::Uniform) {
            if (auto t = c.duration(v, f, Forever::Rejected))
                spec.high = *t;
        } else if (key == "file" && spec.distribution == D::Empirical) {
            if (auto s = c.string(v, f)) {
                spec.file = resolvePath(baseDir, *s);
                const size_t before = c.diags().errorCount();
                spec.samples = loadEmpiricalSamples(spec.file, c.diags(), c.name());
                if (c.diags().errorCount() > before)
                    c.error(v, f, "cannot use empirical file " + spec.file);
            }
        } else {
            c.error(k, f,
                "unknown field \"" + key + "\" for distribution " + *dist + "; expected one of: " + allowed);
        }
    }
    if (!c.ok())
        return std::nullopt;
    if (std::string err = validateDurationSpec(spec); !err.empty()) {
        c.error(node, field, err);
        return std::nullopt;
    }
    return spec;
}

std::optional<GpuSharing> sharingFrom(const YamlNode& v, const std::string& f, DocReader& c)
{
    auto s = c.string(v, f);
    if (!s)
        return std::nullopt;
    if (*s == "capacity")
        return GpuSharing::Capacity;
    if (*s == "partitions")
        return GpuSharing::Partitions;
    c.error(v, f, "unknown sharing \"" + *s + "\"; expected capacity or partitions");
    return std::nullopt;
}

std::optional<TraceSpec> traceFrom(const YamlNode& node, const std::string& baseDir, DocReader& c)
{
    const std::string field = "trace";
    if (!c.isMap(node, field))
        return std::nullopt;
    TraceSpec t;
    t.pos = node.pos;
    bool havePath = false;
    const YamlNode* classNode = nullptr;
    for (const auto& [k, v] : node.entries) {
        const std::string f = joinPath(field, k.scalar);
        if (k.scalar == "path") {
            if (auto s = c.string(v, f)) {
                t.path = resolvePath(baseDir, *s);
                havePath = true;
            }
        } else if (k.scalar == "format") {
            if (auto s = c.string(v, f)) {
                if (*s == "alibaba-2023")
                    t.format = TraceSpec::Format::Alibaba2023;
                else if (*s == "csv")
                    t.format = TraceSpec::Format::Csv;
                else
                    c.error(v, f, "unknown format \"" + *s + "\"; expected alibaba-2023 or csv");
            }
        } else if (k.scalar == "limit") {
            if (auto n = c.integer(v, f, 0, INT64_MAX))
                t.limit = uint64_t(*n);
        } else if (k.scalar == "timeScale") {
            if (auto n = c.number(v, f, 0, 1e6)) {
                if (*n <= 0)
                    c.error(v, f, "Invalid value: " + v.scalar + ": must be greater than 0");
                t.timeScale = *n;
            }
        } else if (k.scalar == "useTraceTimes") {
            if (auto b = c.boolean(v, f))
                t.useTraceTimes = *b;
        } else if (k.scalar == "gpuSpec") {
            if (auto s = c.string(v, f)) {
                if (*s == "selector")
                    t.gpuSpec = GpuSpecMode::Selector;
                else if (*s == "firstAvailable")
                    t.gpuSpec = GpuSpecMode::FirstAvailable;
                else
                    c.error(v, f, "unknown gpuSpec mode \"" + *s + "\"; expected selector or firstAvailable");
            }
        } else if (k.scalar == "sharing") {
            if (auto s = sharingFrom(v, f, c))
                t.sharing = *s;
        } else if (k.scalar == "partitionsPerGpu") {
            if (auto n = c.integer(v, f, 1, 1000)) {
                t.partitionsPerGpu = int32_t(*n);
                if (std::string err = validatePartitions(t.partitionsPerGpu); !err.empty())
                    c.error(v, f, err);
            }
        } else if (k.scalar == "deviceClass") {
            if (auto s = c.string(v, f)) {
                if (s->empty())
                    c.error(v, f, "must not be empty");
                t.deviceClass = *s;
                classNode = &v;
            }
        } else {
            c.unknownField(k, joinPath(field, k.scalar),
                "path, format, limit, timeScale, useTraceTimes, gpuSpec, sharing, partitionsPerGpu, "
                "deviceClass");
        }
    }
    if (classNode) {
        // The trace driver's knobs mean nothing for devices of another class.
        for (const char* knob : { "sharing", "gpuSpec", "partitionsPerGpu" })
            if (node.get(knob))
                c.error(*classNode, joinPath(field, "deviceClass"),
                    std::string("cannot be combined with ") + knob
                        + " (those shape the trace driver's devices)");
        if (t.format != TraceSpec::Format::Alibaba2023)
            c.error(*classNode, joinPath(field, "deviceClass"),
                "only for format alibaba-2023 (csv rows name their own device_class)");
    }
    if (!havePath)
        c.required(node, joinPath(field, "path"));
    if (!c.ok())
        return std::nullopt;
    return t;
}

std::optional<PipelineRunSpec> pipelineFrom(const YamlNode& node, const std::string& baseDir, DocReader& c)
{
    const std::string field = "pipeline";
    if (!c.isMap(node, field))
        return std::nullopt;
    PipelineRunSpec p;
    p.pos = node.pos;
    bool havePath = false;
    for (const auto& [k, v] : node.entries) {
        const std::string f = joinPath(field, k.scalar);
        if (k.scalar == "path") {
            if (auto s = c.string(v, f)) {
                p.path = resolvePath(baseDir, *s);
                havePath = true;
            }
        } else if (k.scalar == "arguments") {
            if (!c.isMap(v, f))
                continue;
            for (const auto& [ak, av] : v.entries)
                p.arguments[ak.scalar] = yamlToDataValue(av);
        } else if (k.scalar == "taskDurations") {
            if (!c.isMap(v, f))
                continue;
            for (const auto& [dk, dv] : v.entries)
                if (auto d = durationFrom(dv, baseDir, joinPath(f, dk.scalar), c))
                    p.taskDurations[dk.scalar] = *d;
        } else {
            c.unknownField(k, joinPath(field, k.scalar), "path, arguments, taskDurations");
        }
    }
    if (!havePath)
        c.required(node, joinPath(field, "path"));
    if (!c.ok())
        return std::nullopt;
    return p;
}

bool isDnsLabel(const std::string& s)
{
    if (s.empty() || s.size() > 63)
        return false;
    for (char ch : s)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'))
            return false;
    return s.front() != '-' && s.back() != '-';
}

} // namespace

DataValue yamlToDataValue(const YamlNode& node)
{
    switch (node.kind) {
    case YamlNode::Kind::Null:
        return DataValue();
    case YamlNode::Kind::Scalar:
        if (!node.quoted) {
            if (auto b = node.asBool())
                return DataValue(*b);
            if (auto i = node.asInt())
                return DataValue(*i);
            if (auto d = node.asDouble())
                return DataValue(*d);
        }
        return DataValue(node.scalar);
    case YamlNode::Kind::Sequence: {
        DataValue::List l;
        for (const YamlNode& item : node.items)
            l.push_back(yamlToDataValue(item));
        return DataValue(std::move(l));
    }
    case YamlNode::Kind::Map: {
        DataValue m = DataValue::map();
        for (const auto& [k, v] : node.entries)
            m.set(k.scalar, yamlToDataValue(v));
        return m;
    }
    }
    return DataValue();
}

std::shared_ptr<const std::vector<double>> loadEmpiricalSamples(
    const std::string& path, Diagnostics& diags, const std::string& owner)
{
    std::ifstream in(path);
    if (!in) {
        diags.error(SourcePos { path, 0, 0 }, kWorkloadKind, owner, "duration.file",
            "cannot open empirical duration file");
        return nullptr;
    }
    auto samples = std::make_shared<std::vector<double>>();
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const size_t hash = line.find('#');
        std::string text = line.substr(0, hash);
        const size_t first = text.find_first_not_of(" \t");
        if (first == std::string::npos)
            continue;
        std::string err;
        auto v = parseDurationSeconds(text, &err, Forever::Rejected);
        if (!v) {
            diags.error(
                SourcePos { path, lineNo, int(first) + 1 }, kWorkloadKind, owner, "duration.file", err);
            continue;
        }
        samples->push_back(*v);
    }
    if (samples->empty())
        diags.error(
            SourcePos { path, 1, 1 }, kWorkloadKind, owner, "duration.file", "no durations in the file");
    return samples;
}

std::optional<ArrivalSpec> parseArrivalSpec(
    const YamlNode& node, const std::string& owner, const std::string& field, Diagnostics& diags)
{
    DocReader c(diags, kWorkloadKind, owner);
    return arrivalFrom(node, field, c);
}

std::optional<DurationSpec> parseDurationSpec(const YamlNode& node, const std::string& baseDir,
    const std::string& owner, const std::string& field, Diagnostics& diags)
{
    DocReader c(diags, kWorkloadKind, owner);
    return durationFrom(node, baseDir, field, c);
}

std::optional<WorkloadSpec> parseWorkloadSpec(
    const YamlNode& node, const std::string& baseDir, Diagnostics& diags)
{
    DocReader c(diags, kWorkloadKind);
    if (!c.isMap(node, ""))
        return std::nullopt;
    WorkloadSpec w;
    w.pos = node.pos;
    const YamlNode* nameNode = node.get("name");
    if (!nameNode) {
        c.required(node, "name");
        return std::nullopt;
    }
    if (auto s = c.string(*nameNode, "name")) {
        w.name = *s;
        c.setName(w.name);
        if (!isDnsLabel(w.name))
            c.error(
                *nameNode, "name", "\"" + w.name + "\" must be a DNS label (lowercase letters, digits, '-')");
    }
    int sources = 0;
    const YamlNode* firstSource = nullptr;
    for (const auto& [k, v] : node.entries) {
        const std::string& key = k.scalar;
        if (key == "name")
            continue;
        if (key == "namespace") {
            if (auto s = c.string(v, key)) {
                w.namespace_ = *s;
                if (!isDnsLabel(w.namespace_))
                    c.error(v, key, "\"" + w.namespace_ + "\" must be a DNS label");
            }
        } else if (key == "seed") {
            if (auto n = c.integer(v, key, 0, INT64_MAX))
                w.seed = uint64_t(*n);
        } else if (key == "manifests") {
            ++sources;
            firstSource = firstSource ? firstSource : &k;
            w.source = WorkloadSpec::Source::Manifests;
            if (v.isScalar()) {
                if (auto s = c.string(v, key))
                    w.manifests.push_back(resolvePath(baseDir, *s));
            } else if (v.isSequence()) {
                for (size_t i = 0; i < v.items.size(); ++i)
                    if (auto s = c.string(v.items[i], key + "[" + std::to_string(i) + "]"))
                        w.manifests.push_back(resolvePath(baseDir, *s));
                if (v.items.empty())
                    c.error(v, key, "needs at least one path");
            } else {
                c.error(v, key, std::string("expected a path or a list of paths, got ") + v.typeName());
            }
        } else if (key == "trace") {
            ++sources;
            firstSource = firstSource ? firstSource : &k;
            w.source = WorkloadSpec::Source::Trace;
            w.trace = traceFrom(v, baseDir, c);
        } else if (key == "pipeline") {
            ++sources;
            firstSource = firstSource ? firstSource : &k;
            w.source = WorkloadSpec::Source::Pipeline;
            w.pipeline = pipelineFrom(v, baseDir, c);
        } else if (key == "arrival") {
            w.arrival = arrivalFrom(v, key, c);
        } else if (key == "duration") {
            w.duration = durationFrom(v, baseDir, key, c);
        } else if (key == "mix") {
            if (!c.isMap(v, key))
                continue;
            for (const auto& [mk, mv] : v.entries)
                if (auto n = c.number(mv, joinPath(key, mk.scalar), 0, 1e12))
                    w.mix[mk.scalar] = *n;
        } else if (key == "scheduling") {
            w.scheduling = groupSpecFrom(v, key, c);
        } else if (key == "checkpointInterval") {
            if (auto t = c.duration(v, key, Forever::Rejected)) {
                if (*t > 0)
                    w.checkpointInterval = *t;
                else
                    c.error(v, key, "must be greater than 0");
            }
        } else if (key == "speed") {
            w.speed = speedTableFrom(v, key, c);
        } else {
            c.unknownField(k, k.scalar,
                "name, namespace, seed, manifests, trace, pipeline, arrival, duration, mix, scheduling, "
                "checkpointInterval, speed");
        }
    }
    if (sources == 0)
        c.error(node, "", "needs one source: manifests, trace or pipeline");
    else if (sources > 1)
        c.error(*firstSource, "", "has more than one source; use exactly one of manifests, trace, pipeline");
    if (!w.mix.empty() && w.source != WorkloadSpec::Source::Manifests)
        c.error(*node.get("mix"), "mix", "mix only applies to manifests");
    if (!c.ok())
        return std::nullopt;
    return w;
}

std::optional<std::vector<WorkloadSpec>> parseWorkloadList(
    const YamlNode& node, const std::string& baseDir, Diagnostics& diags)
{
    if (!node.isSequence()) {
        diags.error(
            node.pos, kWorkloadKind, "", "workloads", std::string("expected a list, got ") + node.typeName());
        return std::nullopt;
    }
    std::vector<WorkloadSpec> out;
    std::set<std::string> names;
    bool ok = true;
    for (const YamlNode& item : node.items) {
        auto w = parseWorkloadSpec(item, baseDir, diags);
        if (!w) {
            ok = false;
            continue;
        }
        if (!names.insert(w->name).second) {
            diags.error(item.pos, kWorkloadKind, w->name, "name", "duplicate workload name");
            ok = false;
            continue;
        }
        out.push_back(std::move(*w));
    }
    if (!ok)
        return std::nullopt;
    return out;
}

std::optional<TraceClusterSpec> parseTraceClusterSpec(
    const YamlNode& node, const std::string& baseDir, Diagnostics& diags)
{
    DocReader c(diags, "Cluster");
    if (!c.isMap(node, "trace"))
        return std::nullopt;
    TraceClusterSpec t;
    t.pos = node.pos;
    bool haveNodes = false;
    for (const auto& [k, v] : node.entries) {
        const std::string f = joinPath("trace", k.scalar);
        if (k.scalar == "nodes") {
            if (auto s = c.string(v, f)) {
                t.nodesPath = resolvePath(baseDir, *s);
                haveNodes = true;
            }
        } else if (k.scalar == "sharing") {
            if (auto s = sharingFrom(v, f, c))
                t.sharing = *s;
        } else if (k.scalar == "partitionsPerGpu") {
            if (auto n = c.integer(v, f, 1, 1000)) {
                t.partitionsPerGpu = int32_t(*n);
                if (std::string err = validatePartitions(t.partitionsPerGpu); !err.empty())
                    c.error(v, f, err);
            }
        } else {
            c.unknownField(k, joinPath("trace", k.scalar), "nodes, sharing, partitionsPerGpu");
        }
    }
    if (!haveNodes)
        c.required(node, "trace.nodes");
    if (!c.ok())
        return std::nullopt;
    return t;
}

} // namespace drasim::workload
