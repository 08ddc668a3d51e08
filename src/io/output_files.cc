#include "io/output_files.h"

#include <filesystem>

#include "core/error.h"
#include "core/fail.h"
#include "io/atomic_file.h"
#include "io/output_set.h"
#include "io/streamed_outputs.h"
#include "io/temp_names.h"

namespace fs = std::filesystem;

namespace onnxrun {

std::vector<std::string> write_outputs_as(OutputSet& set, TensorFormat format, const std::string& dir,
                                          const std::vector<std::string>& names, const std::vector<Tensor>& tensors,
                                          TensorRole role) {
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
  for (const Tensor& t : tensors) {
    dtypes.push_back(t.dtype());
    shapes.push_back(t.shape());
  }
  StreamedOutputs files(set, format, dir, names, dtypes, shapes, role);
  for (size_t k = 0; k < tensors.size(); ++k) files.append(k, tensors[k].raw(), tensors[k].nbytes());  // one block each
  return files.finish();
}

void check_output_targets(TensorFormat format, const std::string& dir, size_t count, TensorRole role) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;  // made by the write; a bad parent fails there
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "cannot create output folder {}: not a folder", dir);
  const std::shared_ptr<const OutputFolder> folder = OutputFolder::open_existing(dir);
  // What killed runs left goes now, before the run, so that a run that then fails cleans
  // as one that succeeds does (io/owned_temp.h: only temporaries nobody holds).
  remove_stale_temporaries(folder->fd());
  for (const std::string& name : tensor_file_names(format, count, role))
    check_writable_target(WriteTarget(folder, name));
}

}  // namespace onnxrun
