#include "impl/conflict/verdict.h"

namespace rlc::conflict {

std::string ExceptionName(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::kProtocolChanged:
      return "ProtocolChangedException";
    case ConflictKind::kMetadataChanged:
      return "MetadataChangedException";
    case ConflictKind::kConcurrentTransaction:
      return "ConcurrentTransactionException";
    case ConflictKind::kConcurrentAppend:
      return "ConcurrentAppendException";
    case ConflictKind::kConcurrentDeleteRead:
      return "ConcurrentDeleteReadException";
    case ConflictKind::kConcurrentDeleteDelete:
      return "ConcurrentDeleteDeleteException";
    case ConflictKind::kUnsupportedTableFeature:
      return "DeltaUnsupportedTableFeatureException";
  }
  return "UnknownConflictException";
}

std::string Describe(const Abort& abort) {
  std::string s = ExceptionName(abort.kind) + " at version " +
                  std::to_string(abort.winner_version) + " (" + abort.winner_operation +
                  "): " + abort.reason;
  if (abort.path.has_value()) s += " [path " + *abort.path + "]";
  if (abort.partition.has_value()) s += " [partition " + *abort.partition + "]";
  return s;
}

}  // namespace rlc::conflict
