// Deliberately wrong RKNN ports: the reference port with one realistic bug
// each (issue 3 "Done when"), most made by rewriting the case before handing
// it to the reference (a wrong segment length, swapped sub-blocks, …).
#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/abi_view.h"
#include "core/profile.h"
#include "mutants/mutants.h"
#include "reference/rknn/native_layout.h"
#include "reference/rknn/rknn_port.h"
#include "reference/rknn/sub_blocks.h"

namespace npuconf {
namespace {

// A copy of a case whose params, routine and tensors can be changed.
class EditedCase {
 public:
  explicit EditedCase(const npuconf_case* c)
      : c_(*c),
        params_(c->params, c->params + c->n_params),
        inputs_(c->inputs, c->inputs + c->n_inputs) {}
  void SetInt(const char* key, int64_t value) {
    for (auto& p : params_) {
      if (std::strcmp(p.key, key) == 0) {
        p.kind = NPUCONF_PARAM_INT;
        p.i = value;
        return;
      }
    }
    npuconf_param p{};
    p.key = Keep(key);
    p.kind = NPUCONF_PARAM_INT;
    p.i = value;
    params_.push_back(p);
  }
  void SetString(const char* key, const std::string& value) {
    npuconf_param p{};
    p.key = Keep(key);
    p.kind = NPUCONF_PARAM_STRING;
    p.s = Keep(value);
    params_.erase(
        std::remove_if(params_.begin(), params_.end(),
                       [&](const npuconf_param& q) { return std::strcmp(q.key, key) == 0; }),
        params_.end());
    params_.push_back(p);
  }
  void SetRoutine(const std::string& routine) { c_.routine = Keep(routine); }
  npuconf_tensor* Input(const char* name) {
    for (auto& t : inputs_) {
      if (std::strcmp(t.name, name) == 0) return &t;
    }
    return nullptr;
  }
  void RenameInput(const char* from, const char* to) {
    if (auto* t = Input(from)) t->name = Keep(to);
  }
  int32_t Call(int64_t* status, char* message, uint64_t message_bytes) {
    c_.params = params_.data();
    c_.n_params = params_.size();
    c_.inputs = inputs_.data();
    c_.n_inputs = inputs_.size();
    return rknn::RknnReferenceCall(&c_, status, message, message_bytes);
  }
  npuconf_case& raw() { return c_; }

 private:
  const char* Keep(const std::string& text) { return strings_.emplace_back(text).c_str(); }
  npuconf_case c_;
  std::vector<npuconf_param> params_;
  std::vector<npuconf_tensor> inputs_;
  std::deque<std::string> strings_;
};

enum class Bug {
  kNibbleSwapped,
  kSubKSubNSwapped,
  kNoKSegmentation,
  kSegmentLength4096,
  kSegmentsPaddedTogether,
  kTpNormReadAsNorm,
  kCBlockedWithASubK,
  kMPadded,
  kPaddingNotZero,
  kPerGroupNormAccepted,
  kDynamicCapacityFirstShape,
  kMixedBOwnDtypeRow,
  kCOtherDtypeSubN4,
};

// The sub-blocks the reference derives for the case's type: what a bug changes.
std::optional<rknn::NativeSubBlocks> SubOf(const CaseView& view) {
  const Profile* p = FindProfile(view.profile());
  auto type = view.Int("type");
  if (!p || !p->rknn || !type) return std::nullopt;
  return rknn::SubBlocksFor(*p->rknn, static_cast<int32_t>(*type));
}

// Calls the reference with the output redirected into a scratch buffer of
// `scratch_bytes`, then copies what fits into the real output (a bug that
// "writes more" without corrupting the runner's heap past its guard zone).
int32_t CallIntoScratch(EditedCase& e, const char* out_name, uint64_t scratch_bytes,
                        int64_t* status, char* message, uint64_t message_bytes) {
  npuconf_case& raw = e.raw();
  std::vector<npuconf_tensor> outputs(raw.outputs, raw.outputs + raw.n_outputs);
  std::vector<uint8_t> scratch(scratch_bytes, 0);
  npuconf_tensor* real = nullptr;
  for (auto& t : outputs) {
    if (std::strcmp(t.name, out_name) == 0) {
      real = &raw.outputs[&t - outputs.data()];
      t.data = scratch.data();
      t.bytes = scratch_bytes;
    }
  }
  npuconf_tensor* saved = raw.outputs;
  raw.outputs = outputs.data();
  const int32_t result = e.Call(status, message, message_bytes);
  raw.outputs = saved;
  if (real && real->data) {
    std::memcpy(real->data, scratch.data(), std::min<uint64_t>(real->bytes, scratch_bytes));
    for (auto& t : outputs) {
      if (std::strcmp(t.name, out_name) == 0) {
        real->rank = t.rank;
        // dims were written into the runner's array already (shared pointer)
      }
    }
  }
  return result;
}

template <Bug kBug>
int32_t MutantCall(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const std::string routine = view.routine();
  EditedCase e(c);
  auto sub = SubOf(view);
  const Profile* profile = FindProfile(view.profile());
  switch (kBug) {
    case Bug::kNibbleSwapped:
      if (routine == "rknn.int4_pack" && profile && profile->rknn) {
        const NibbleOrder order = ParseNibbleOrder(view.String("nibble").value_or(""))
                                      .value_or(profile->rknn->norm_nibble);
        e.SetString("nibble", order == NibbleOrder::kLowFirst ? "high_first" : "low_first");
      }
      break;
    case Bug::kSubKSubNSwapped:
      if ((routine == "rknn.b_norm_to_native" || routine == "rknn.b_native_to_norm") && sub) {
        e.SetInt("sub_n", view.Int("sub_k").value_or(sub->b_sub_k));
        e.SetInt("sub_k", view.Int("sub_n").value_or(sub->b_sub_n));
      }
      break;
    case Bug::kNoKSegmentation:
      if (routine.rfind("rknn.b_", 0) == 0) e.SetInt("seg_len", 0);
      break;
    case Bug::kSegmentLength4096:
      if (routine.rfind("rknn.b_", 0) == 0) e.SetInt("seg_len", 4096);
      break;
    case Bug::kSegmentsPaddedTogether:
      // Every segment laid out as a full L-row block: the last one is padded
      // up to L rows together with the others instead of on its own.
      if (routine == "rknn.b_norm_to_native" && profile && profile->rknn && sub) {
        const int64_t L = view.Int("seg_len").value_or(profile->rknn->k_segment);
        const int64_t K = view.Int("K").value_or(0), N = view.Int("N").value_or(0);
        npuconf_tensor* in = e.Input("B");
        if (L > 0 && K > L && in && Bits(static_cast<DType>(in->dtype)) >= 8) {
          const int64_t T = (K + L - 1) / L, elem = Bits(static_cast<DType>(in->dtype)) / 8;
          std::vector<uint8_t> padded(static_cast<size_t>(T * L * N * elem), 0);
          std::memcpy(padded.data(), in->data, static_cast<size_t>(K * N * elem));
          in->data = padded.data();
          in->bytes = padded.size();
          e.SetInt("K", T * L);
          const int64_t sub_n = view.Int("sub_n").value_or(sub->b_sub_n);
          const uint64_t native =
              static_cast<uint64_t>((N + sub_n - 1) / sub_n * sub_n * T * L * elem);
          return CallIntoScratch(e, "B_native", native, status, message, message_bytes);
        }
      }
      break;
    case Bug::kTpNormReadAsNorm:
      if (routine == "rknn.b_tp_norm_to_native") {
        e.SetRoutine("rknn.b_norm_to_native");
        e.RenameInput("B_tp", "B");
      }
      break;
    case Bug::kCBlockedWithASubK:
      if (routine.rfind("rknn.c_", 0) == 0 && sub)
        e.SetInt("sub_n", view.Int("sub_k").value_or(sub->a_sub_k));
      break;
    case Bug::kMPadded:
      // NATIVE A with M rounded up to a multiple of 4, as if M were blocked too.
      if (routine == "rknn.a_norm_to_native" && sub) {
        const int64_t M = view.Int("M").value_or(0), K = view.Int("K").value_or(0);
        npuconf_tensor* in = e.Input("A");
        const int64_t padded_m = (M + 3) / 4 * 4;
        if (in && M > 0 && K > 0 && padded_m != M && Bits(static_cast<DType>(in->dtype)) >= 8) {
          const int64_t elem = Bits(static_cast<DType>(in->dtype)) / 8;
          std::vector<uint8_t> rows(static_cast<size_t>(padded_m * K * elem), 0);
          std::memcpy(rows.data(), in->data, static_cast<size_t>(M * K * elem));
          in->data = rows.data();
          in->bytes = rows.size();
          e.SetInt("M", padded_m);
          const int64_t sub_k = view.Int("sub_k").value_or(sub->a_sub_k);
          return CallIntoScratch(
              e, "A_native",
              static_cast<uint64_t>((K + sub_k - 1) / sub_k * padded_m * sub_k * elem), status,
              message, message_bytes);
        }
      }
      break;
    case Bug::kPaddingNotZero: {
      const int32_t result = e.Call(status, message, message_bytes);
      npuconf_tensor* out = view.Output("B_native");
      if (routine == "rknn.b_norm_to_native" && out && out->data && *status == 0 && sub &&
          Bits(static_cast<DType>(out->dtype)) >= 8) {
        // Leaves the padding as it found it (restores the caller's fill).
        const int64_t K = *view.Int("K"), N = *view.Int("N");
        const int64_t sn = view.Int("sub_n").value_or(sub->b_sub_n),
                      sk = view.Int("sub_k").value_or(sub->b_sub_k);
        const int64_t elem = Bits(static_cast<DType>(out->dtype)) / 8, n1 = (N + sn - 1) / sn,
                      k1 = (K + sk - 1) / sk;
        const int64_t L = view.Int("seg_len").value_or(profile->rknn->k_segment);
        if (L == 0 || K <= L) {
          auto* bytes = static_cast<uint8_t*>(out->data);
          for (int64_t e1 = 0; e1 < n1 * k1 * sn * sk; ++e1) {
            const int64_t tile = e1 / (sn * sk), n = (tile / k1) * sn + (e1 % (sn * sk)) / sk,
                          k = (tile % k1) * sk + e1 % sk;
            if (n >= N || k >= K) std::memset(bytes + e1 * elem, 0xCD, static_cast<size_t>(elem));
          }
        }
      }
      return result;
    }
    case Bug::kPerGroupNormAccepted:
      if (routine == "rknn.matmul_create" && view.Int("B_quant_type").value_or(0) >= 4) {
        e.SetInt("B_quant_type", 0);  // forgets the per-group rules of §5.4
      }
      break;
    case Bug::kMixedBOwnDtypeRow:
      // A mixed type's B takes the row of its own dtype (INT4 [64,32], INT8
      // [32,32]) where the profile reads the note to Table 3-5 as C's row. To
      // NATIVE it writes its own layout as far as the caller's buffer goes.
      if (routine.rfind("rknn.b_", 0) == 0 && profile && profile->rknn && !view.Int("sub_n") &&
          !view.Int("sub_k")) {
        const RknnFacts& f = *profile->rknn;
        const RknnMatmulType* t = f.FindType(static_cast<int32_t>(view.Int("type").value_or(0)));
        if (t && t->a != t->b && f.b_sub_n_k.count(t->b)) {
          const auto [sub_n, sub_k] = f.b_sub_n_k.at(t->b);
          e.SetInt("sub_n", sub_n);
          e.SetInt("sub_k", sub_k);
          const auto own =
              rknn::BNativeGeometryFor(view.Int("K").value_or(0), view.Int("N").value_or(0), sub_n,
                                       sub_k, view.Int("seg_len").value_or(f.k_segment), t->b);
          if (own && view.Output("B_native")) {
            return CallIntoScratch(e, "B_native", own->native_bytes, status, message,
                                   message_bytes);
          }
        }
      }
      break;
    case Bug::kCOtherDtypeSubN4:
      // NATIVE C of an output no table documents (FLOAT16, INT8) blocked by the
      // header's generic 4, whatever the profile's reading of §8.6.
      if (routine.rfind("rknn.c_", 0) == 0 && profile && profile->rknn && !view.Int("sub_n")) {
        const RknnMatmulType* t =
            profile->rknn->FindType(static_cast<int32_t>(view.Int("type").value_or(0)));
        if (t && !profile->rknn->c_sub_n.count(t->c)) e.SetInt("sub_n", 4);
      }
      break;
    case Bug::kDynamicCapacityFirstShape: {
      const int32_t result = e.Call(status, message, message_bytes);
      npuconf_tensor* io = view.Output("io_attrs");
      npuconf_tensor* cap = view.Output("capacity");
      if (routine == "rknn.matmul_create_dynamic" && *status == 0 && io && cap && io->data &&
          cap->data) {
        const auto* words = static_cast<const int64_t*>(io->data);
        uint64_t first[3];
        for (int i = 0; i < 3; ++i)
          first[i] = static_cast<uint64_t>(words[i * 7 + 5]);  // shape 0's sizes
        std::memcpy(cap->data, first, sizeof(first));
      }
      return result;
    }
  }
  return e.Call(status, message, message_bytes);
}

}  // namespace

void AddRknnMutants(std::vector<Mutant>* out) {
  const std::vector<Mutant> mutants = {
      {"rknn-int4-nibble-swapped",
       "int4_pack puts the even element in the other nibble than the profile's order (§2.4)",
       "rknn.int4_pack.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kNibbleSwapped>,
       {"rknn.int4_pack"}},
      {"rknn-subk-subn-swapped",
       "NATIVE B tiles are [subK, subN] instead of [subN, subK] (§2.1)",
       "rknn.b_norm_to_native.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kSubKSubNSwapped>,
       {"rknn.b_norm_to_native", "rknn.b_native_to_norm"}},
      {"rknn-no-k-segmentation",
       "B NORM -> NATIVE never splits K into segments (§3.3)",
       "rknn.b_norm_to_native.segmentation",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kNoKSegmentation>,
       {"rknn.b_*"}},
      {"rknn-segment-4096-on-rk3588",
       "B is segmented every 4096 K rows on RK3588 (RK3576's length; §3.3)",
       "rknn.b_norm_to_native.segmentation",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kSegmentLength4096>,
       {"rknn.b_*"}},
      {"rknn-segments-padded-together",
       "the last K segment is padded to a full L rows instead of on its own (§3.3)",
       "rknn.b_norm_to_native.segmentation",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kSegmentsPaddedTogether>,
       {"rknn.b_norm_to_native"}},
      {"rknn-tp-norm-read-as-norm",
       "TP_NORM B [N,K] is read as NORM [K,N] (§1.3, §2.1)",
       "rknn.b_tp_norm_to_native.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kTpNormReadAsNorm>,
       {"rknn.b_tp_norm_to_native"}},
      {"rknn-c-blocked-with-a-subk",
       "NATIVE C is blocked by A's subK instead of C's subN (§2.1, §2.2)",
       "rknn.c_norm_to_native.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kCBlockedWithASubK>,
       {"rknn.c_*"}},
      {"rknn-m-padded",
       "NATIVE A pads M to a multiple of 4 (M is never padded, §2.1)",
       "rknn.a_norm_to_native.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kMPadded>,
       {"rknn.a_norm_to_native"}},
      {"rknn-padding-not-zero",
       "B NORM -> NATIVE leaves the padding as it found it (§2.1: filled with 0)",
       "rknn.b_norm_to_native.padding_is_zero",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kPaddingNotZero>,
       {"rknn.b_norm_to_native"}},
      {"rknn-per-group-norm-accepted",
       "create accepts per-group B quant with NORM layouts and any group size (§5.4, §7.3)",
       "rknn.matmul_create.rejects_invalid",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kPerGroupNormAccepted>,
       {"rknn.matmul_create"}},
      {"rknn-mixed-b-own-dtype-row",
       "a mixed type's NATIVE B takes the row of B's own dtype, not the same-type row of C's dtype "
       "(§2.2 note to "
       "Table 3-5)",
       "rknn.b_norm_to_native.matches_oracle",
       "rk3576",
       &rknn::RknnReference(),
       &MutantCall<Bug::kMixedBOwnDtypeRow>,
       {"rknn.b_*"}},
      {"rknn-c-other-dtype-sub-n-4",
       "NATIVE C of an undocumented output dtype (FLOAT16, INT8) is blocked by 4, not the "
       "profile's reading of §8.6",
       "rknn.c_norm_to_native.matches_oracle",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kCOtherDtypeSubN4>,
       {"rknn.c_*"}},
      {"rknn-dynamic-capacity-first-shape",
       "dynamic shape sizes each buffer for the first shape, not the largest (§4.3)",
       "rknn.matmul_create_dynamic.capacity_ge_every_shape",
       "rk3588",
       &rknn::RknnReference(),
       &MutantCall<Bug::kDynamicCapacityFirstShape>,
       {"rknn.matmul_create_dynamic"}},
  };
  out->insert(out->end(), mutants.begin(), mutants.end());
}

}  // namespace npuconf
