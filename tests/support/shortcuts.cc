#include "support/shortcuts.h"

#include "suite/run.h"

namespace onnxrun {

std::string format_array(const Tensor& t, const ArrayPrintOptions& o) {
  return format_shown(shown_elements(t, o), t.shape(), o);
}

void write_tensor_file(const WriteTarget& target, const Tensor& t, const std::string& name) {
  StreamedTensorFile file(target, TensorFormat::kPb, t.dtype(), t.shape(), name);
  file.append(t.raw(), t.nbytes());
  file.commit();
}

void write_npy_file(const WriteTarget& target, const Tensor& t) {
  StreamedTensorFile file(target, TensorFormat::kNpy, t.dtype(), t.shape(), "");
  file.append(t.raw(), t.nbytes());
  file.commit();
}

void write_npz_file(const WriteTarget& target, const std::vector<NamedArray>& arrays) {
  StreamedNpzFile file(target, NpzLayout(arrays));
  for (size_t k = 0; k < arrays.size(); ++k) file.append(k, arrays[k].tensor.raw(), arrays[k].tensor.nbytes());
  file.commit();
}

std::vector<const LeakyReluPath*> leaky_relu_supported_paths() {
  std::vector<const LeakyReluPath*> out;
  for (const LeakyReluPath& p : leaky_relu_all_paths())
    if (p.supported()) out.push_back(&p);
  return out;
}

Attribute int_attr(int64_t v) {
  Attribute a;
  a.kind = AttrKind::kInt;
  a.i = v;
  return a;
}

bool all_passed(const RunReport& report) {
  for (const SetRun& s : report.runs)
    if (!s.passed()) return false;
  return true;
}

}  // namespace onnxrun
