package io.hadoopceph.fs;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the data pool of a new file. Without {@code ceph.data.pools} the file inherits
 * its directory's layout, which is how an erasure-coded directory keeps its data on the
 * EC pool. A single listed pool is an explicit choice for every new file. With several,
 * the historical rule applies: the first pool whose size equals the requested
 * replication, else the first pool listed.
 */
public final class CephPoolSelector {

  /** Answers a pool's replication (its size; k+m for an erasure-coded pool). */
  @FunctionalInterface
  public interface PoolReplication {
    int of(String pool) throws IOException;
  }

  private final List<String> pools;
  private final PoolReplication replication;

  public CephPoolSelector(List<String> pools, PoolReplication replication) {
    this.pools = List.copyOf(pools);
    this.replication = replication;
  }

  /** The pool to pass to the MDS, or empty to inherit the directory layout. */
  public Optional<String> select(short requestedReplication) throws IOException {
    if (pools.isEmpty()) {
      return Optional.empty();
    }
    if (pools.size() == 1) {
      return Optional.of(pools.get(0));
    }
    for (String pool : pools) {
      if (replication.of(pool) == requestedReplication) {
        return Optional.of(pool);
      }
    }
    return Optional.of(pools.get(0));
  }
}
