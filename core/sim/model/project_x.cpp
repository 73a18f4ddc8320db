#include "core/sim/model/project_x.h"

#include <cmath>
#include <string>

namespace contend::sim {

namespace {

constexpr std::int64_t kMiB = 1 << 20;
using S = ProjectX;

// What each kind of kernel asks of the device at solo speed:
//                                bw    cu    issue ws          cacheSens reuse
// Chosen so that everything the healthy network runs side by side fits (sums <= 1, working
// sets <= 40 MiB); only the bad forms of the sites overflow a capacity.
constexpr OpDemand kConv{0.20, 0.80, 0.65, 16 * kMiB, 0.25, 0.10};
constexpr OpDemand kGemm{0.15, 0.90, 0.75, 24 * kMiB, 0.20, 0.08};
constexpr OpDemand kGemmBig{0.18, 0.90, 0.80, 32 * kMiB, 0.20, 0.08};
constexpr OpDemand kScale{0.55, 0.30, 0.35, 4 * kMiB, 0.0, 0.0};
constexpr OpDemand kEltwise{0.55, 0.25, 0.30, 4 * kMiB, 0.0, 0.0};
constexpr OpDemand kConcat{0.60, 0.15, 0.20, 6 * kMiB, 0.0, 0.0};
constexpr OpDemand kPool{0.50, 0.30, 0.30, 4 * kMiB, 0.0, 0.0};
constexpr OpDemand kResize{0.40, 0.15, 0.20, 6 * kMiB, 0.0, 0.0};
constexpr OpDemand kCrop{0.25, 0.05, 0.10, 4 * kMiB, 0.0, 0.0};
// Bandwidth site: a layout transform and a normalisation are both streaming, memory-bound.
constexpr OpDemand kTransform{0.72, 0.06, 0.15, 8 * kMiB, 0.0, 0.0};
constexpr OpDemand kNormalize{0.78, 0.05, 0.12, 8 * kMiB, 0.0, 0.0};
// Cache site: a convolution chain that lives on L2 reuse beside an FPN feature-map op with a big
// footprint (48 + 24 MiB > 40 MiB); the good form re-tiles both (20 + 12 MiB fit).
constexpr OpDemand kChain{0.25, 0.75, 0.60, 24 * kMiB, 0.60, 0.30};
constexpr OpDemand kChainTiled{0.25, 0.75, 0.60, 12 * kMiB, 0.60, 0.30};
constexpr OpDemand kFpn{0.40, 0.20, 0.30, 48 * kMiB, 0.20, 0.10};
constexpr OpDemand kFpnTiled{0.40, 0.20, 0.30, 20 * kMiB, 0.20, 0.10};
// Lock site: atomics into a shared buffer inside one compute-unit group; little of anything.
constexpr OpDemand kAtomic{0.04, 0.05, 0.03, 1 * kMiB, 0.0, 0.0};
// Sync site: tiny element-wise metric ops, and their fused replacement.
constexpr OpDemand kTiny{0.15, 0.05, 0.10, 1 * kMiB, 0.0, 0.0};
constexpr OpDemand kFused{0.30, 0.10, 0.20, 2 * kMiB, 0.0, 0.0};
// Controls.
constexpr OpDemand kRoiAlign{0.35, 0.15, 0.25, 4 * kMiB, 0.0, 0.0};
constexpr OpDemand kNms{0.10, 0.08, 0.10, 2 * kMiB, 0.0, 0.0};

KernelShape shape(int grid, int block, int registers = 32, int sharedMemory = 0) {
    KernelShape k;
    k.grid = {grid, 1, 1};
    k.block = {block, 1, 1};
    k.registers = registers;
    k.sharedMemory = sharedMemory;
    return k;
}

struct Stage {
    int number;
    double convUs, scaleUs, reluUs, addUs;
    int convGrid, eltGrid;
};

constexpr Stage kStages[4] = {
    {1, 90, 15, 8, 10, 392, 3136},
    {2, 110, 12, 7, 8, 196, 1568},
    {3, 120, 10, 6, 7, 98, 784},
    {4, 130, 8, 5, 6, 49, 392},
};

class Net {
  public:
    explicit Net(Iteration& it) : m_it(it) { m_it.ops.reserve(128); }

    std::uint32_t add(std::string name, std::string hostOp, std::int32_t stream, double us, const OpDemand& demand,
                      KernelShape k, double sigma = 0.02, std::string tag = {}) {
        OpSpec op;
        op.name = std::move(name);
        op.hostOp = std::move(hostOp);
        op.stream = stream;
        op.workNs = std::llround(us * 1000.0);
        op.jitterSigma = sigma;
        op.demand = demand;
        op.shape = k;
        op.tag = std::move(tag);
        m_it.ops.push_back(std::move(op));
        return last();
    }
    void after(std::uint32_t op, std::uint32_t dep) { m_it.ops[op].after.push_back(dep); }
    OpSpec& op(std::uint32_t i) { return m_it.ops[i]; }
    std::uint32_t last() const { return static_cast<std::uint32_t>(m_it.ops.size() - 1); }

    std::uint32_t conv(const Stage& s, bool nhwc = false) {
        const std::string name = nhwc ? "conv2d_3x3_nhwc_fwd" : "conv2d_3x3_fwd";
        return add(name, "aten::cudnn_convolution", S::kMainStream, s.convUs, kConv,
                   shape(s.convGrid, 256, 128, 49152));
    }
    void scale(const Stage& s) {
        add("batch_norm_fwd", "aten::batch_norm", S::kMainStream, s.scaleUs, kScale, shape(s.eltGrid, 512, 40));
    }
    void relu(const Stage& s) {
        add("relu_fwd", "aten::relu_", S::kMainStream, s.reluUs, kEltwise, shape(s.eltGrid, 128, 16));
    }
    void residualAdd(const Stage& s) {
        add("elementwise_add", "aten::add_", S::kMainStream, s.addUs, kEltwise, shape(s.eltGrid, 128, 20));
    }
    void concat(const Stage& s) {
        add("concat", "aten::cat", S::kMainStream, s.addUs * 2, kConcat, shape(s.eltGrid, 256, 24));
    }

    // conv-bn-relu-conv-bn-add-relu; dense blocks concatenate instead of adding.
    std::uint32_t block(const Stage& s, bool dense = false) {
        const std::uint32_t first = conv(s, dense);
        scale(s);
        relu(s);
        conv(s, dense);
        scale(s);
        if (dense)
            concat(s);
        else
            residualAdd(s);
        relu(s);
        return first;
    }

  private:
    Iteration& m_it;
};

std::string tagFor(bool bad, const char* site) { return std::string(bad ? "injected:" : "fixed:") + site; }

}  // namespace

const std::vector<StreamInfo>& ProjectX::streams() {
    static const std::vector<StreamInfo> all{
        {kMainStream, "main"}, {kPreStream, "preprocess"}, {kAuxStream, "aux"}, {kAccumStream, "accumulate"}};
    return all;
}

Iteration ProjectX::build(int step) const {
    Iteration it;
    it.index = step;
    const Sites bad = sites(step);
    Net n(it);

    // Stem.
    n.add("conv2d_7x7_s2_fwd", "aten::cudnn_convolution", kMainStream, 180, kConv, shape(784, 256, 96, 32768));
    n.scale(kStages[0]);
    n.relu(kStages[0]);
    const std::uint32_t pool =
        n.add("max_pool2d_fwd", "aten::max_pool2d", kMainStream, 20, kPool, shape(1568, 256, 32));
    // Next batch's resize runs beside stage 1's first convolution.
    const std::uint32_t resize =
        n.add("resize_bilinear", "torchvision::resize", kPreStream, 40, kResize, shape(2048, 256, 28));
    n.after(resize, pool);

    n.block(kStages[0]);
    n.block(kStages[0]);

    // Stage 2. Control: RoI align overlaps the first convolution; together they fit.
    const std::uint32_t roi = n.add("roi_align_fwd", "torchvision::roi_align", kAuxStream, 60, kRoiAlign,
                                    shape(512, 256, 48), 0.03, "control:overlap-fits");
    n.after(roi, n.last() - 1);
    n.block(kStages[1]);

    // Cache site: FPN feature-map op beside a chain of fused convolutions.
    const std::uint32_t beforeChain = n.last();
    const std::uint32_t fpn =
        n.add("fpn_upsample_add", "aten::upsample_nearest2d", kAuxStream, 150, bad.cache ? kFpn : kFpnTiled,
              shape(bad.cache ? 1024 : 2560, 256, 40), 0.08, tagFor(bad.cache, "cache"));
    n.after(fpn, beforeChain);
    for (int k = 0; k < 4; ++k)
        n.add("conv2d_3x3_bias_relu_fwd", "aten::cudnn_convolution_relu", kMainStream, 60,
              bad.cache ? kChain : kChainTiled, bad.cache ? shape(196, 256, 128, 49152) : shape(392, 128, 128, 24576),
              0.02, tagFor(bad.cache, "cache"));
    n.block(kStages[1]);

    // Bandwidth site: the layout transform to channels-last, and the next batch's normalisation.
    // Bad: the normalisation waits for the op before the transform, so both start together.
    // Good: it waits for the transform and lands on the (memory-light) convolution after it.
    const std::uint32_t beforeTransform = n.last();
    const std::uint32_t transform = n.add("nchw_to_nhwc", "aten::contiguous", kMainStream, 80, kTransform,
                                          shape(1568, 256, 24), 0.02, tagFor(bad.bandwidth, "bandwidth"));
    const std::uint32_t norm = n.add("normalize_mean_std", "torchvision::normalize", kPreStream, 70, kNormalize,
                                     shape(2048, 256, 22), 0.02, tagFor(bad.bandwidth, "bandwidth"));
    n.after(norm, bad.bandwidth ? beforeTransform : transform);
    n.add("random_crop_flip", "torchvision::random_crop", kPreStream, 20, kCrop, shape(1024, 256, 20));

    // Stage 3: dense blocks in channels-last.
    for (int b = 0; b < 3; ++b) n.block(kStages[2], true);

    // Stage 4, first block with the lock site: two atomic accumulations start when the first
    // convolution ends; an add on the main stream consumes both. Bad: they share one lock in
    // compute-unit group 3, so one spins while the other holds it. Good: private buffers.
    const Stage& s4 = kStages[3];
    const std::uint32_t c1 = n.conv(s4);
    it.locks.push_back("cu_group_3.accum_lock");
    if (!bad.lock) it.locks.push_back("cu_group_3.accum_lock_private");
    const std::uint32_t scatter = n.add("scatter_add_atomic", "aten::scatter_add_", kAuxStream, 40, kAtomic,
                                        shape(54, 128, 32), 0.03, tagFor(bad.lock, "lock"));
    n.op(scatter).lock = 0;
    n.after(scatter, c1);
    const std::uint32_t indexPut = n.add("index_put_accumulate", "aten::index_put_", kAccumStream, 40, kAtomic,
                                         shape(54, 128, 32), 0.03, tagFor(bad.lock, "lock"));
    n.op(indexPut).lock = bad.lock ? 0 : 1;
    n.after(indexPut, c1);
    n.scale(s4);
    n.relu(s4);
    const std::uint32_t consume =
        n.add("elementwise_add", "aten::add", kMainStream, 6, kEltwise, shape(s4.eltGrid, 128, 20));
    n.after(consume, scatter);
    n.after(consume, indexPut);
    n.conv(s4);
    n.scale(s4);
    n.residualAdd(s4);
    n.relu(s4);
    n.block(s4);

    // Head. Control: the biggest matmul is slow every step, alone, never contended.
    n.add("adaptive_avg_pool2d_fwd", "aten::adaptive_avg_pool2d", kMainStream, 20, kPool, shape(392, 256, 24));
    const std::uint32_t big = n.add("gemm_8192x8192", "aten::addmm", kMainStream, 900, kGemmBig,
                                    shape(512, 256, 232, 98304), 0.02, "control:always-slow");
    n.add("relu_fwd", "aten::relu_", kMainStream, 5, kEltwise, shape(64, 128, 16));
    // Control: NMS, whose duration depends on the data (25% spread), on the aux stream.
    const std::uint32_t nms = n.add("nms_kernel", "torchvision::nms", kAuxStream, 30, kNms, shape(128, 64, 40), 0.25,
                                    "control:natural-variance");
    n.after(nms, big);
    n.add("gemm_4096x1000", "aten::addmm", kMainStream, 120, kGemm, shape(128, 256, 168, 65536));
    n.add("softmax_fwd", "aten::softmax", kMainStream, 15, kEltwise, shape(64, 1024, 32));

    // Sync site: the metrics. Bad: dozens of tiny element-wise ops, each read back with .item()
    // (a stream sync) before the next is launched. Good: one fused kernel, no sync.
    if (bad.sync) {
        static const char* const kNames[][2] = {
            {"elementwise_mul", "aten::mul"}, {"add_scalar", "aten::add"},
            {"clamp_min", "aten::clamp_min"}, {"isfinite_check", "aten::isfinite"},
            {"div_scalar", "aten::div"},      {"elementwise_sub", "aten::sub"},
            {"abs_fwd", "aten::abs"},         {"sum_reduce_small", "aten::sum"},
        };
        for (int k = 0; k < kMetricOps; ++k) {
            const auto& nm = kNames[k % 8];
            const std::uint32_t t = n.add(nm[0], nm[1], kMainStream, 2.0 + 0.8 * (k % 3), kTiny,
                                          shape(4 + k % 3, 128, 16), 0.05, "injected:sync");
            n.op(t).barrier = true;
        }
    } else {
        n.add("triton_poi_fused_metrics_0", "CompiledFunction", kMainStream, 18, kFused, shape(16, 256, 24), 0.03,
              "fixed:sync");
    }
    return it;
}

}  // namespace contend::sim
