/* mpi_tasks.c -- MPI+OpenMP: every rank runs a parallel region whose single thread creates
 * `tasks` explicit tasks, then rank 1 (and every rank but 0) sleeps `delay_ms` before an
 * MPI_Barrier, so that rank 0 waits in the barrier that long; an MPI_Allreduce sums the tasks.
 *
 * Usage: mpirun -np R mpi_tasks [tasks] [delay_ms]      (defaults 20, 200)
 * Prints per rank: rank=R size=S tasks=N barrier_ns=T sum=M OK
 */
#include "common.h"

#include <mpi.h>
#include <omp.h>

static const char* kUsage = "usage: mpi_tasks [tasks 1..100000] [delay_ms 0..10000]\n";

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long tasks = arg_long(argc, argv, 1, 20, 1, 100000, kUsage);
  long delay_ms = arg_long(argc, argv, 2, 200, 0, 10000, kUsage);

  long done = 0;
#pragma omp parallel
#pragma omp single
  for (long i = 0; i < tasks; i++) {
#pragma omp task
    {
      spin_ns(100000);  /* 0.1 ms of work */
#pragma omp atomic
      done++;
    }
  }

  if (rank != 0) {
    struct timespec d = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
  }
  unsigned long long t0 = now_ns();
  MPI_Barrier(MPI_COMM_WORLD);
  unsigned long long barrier_ns = now_ns() - t0;

  long sum = 0;
  MPI_Allreduce(&done, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int ok = done == tasks && sum == tasks * size;
  printf("rank=%d size=%d threads=%d tasks=%ld barrier_ns=%llu sum=%ld %s\n", rank, size,
         omp_get_max_threads(), done, barrier_ns, sum, ok ? "OK" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
