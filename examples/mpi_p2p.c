/* mpi_p2p.c -- MPI+OpenMP point-to-point: every rank runs a taskloop of `tasks` explicit tasks
 * (grainsize 1); then, in each pair of ranks (2k, 2k+1), rank 2k+1 sleeps
 * `delay_ms` and sends `messages` messages (tag 7, 8, ...) of 1024 ints to rank 2k, which
 * receives them (its first MPI_Recv waits for the sleep: a late sender) and sends one reply
 * (tag 99) back. A rank without a partner only computes.
 *
 * Usage: mpirun -np R mpi_p2p [tasks] [delay_ms] [messages]      (defaults 20, 200, 3)
 * Prints per rank: rank=R size=S tasks=N sent=A received=B first_recv_ns=T OK
 */
#include "common.h"

#include <mpi.h>
#include <omp.h>

static const char* kUsage = "usage: mpi_p2p [tasks 1..100000] [delay_ms 0..10000] [messages 1..1000]\n";

int main(int argc, char** argv) {
  long tasks = arg_long(argc, argv, 1, 20, 1, 100000, kUsage);
  long delay_ms = arg_long(argc, argv, 2, 200, 0, 10000, kUsage);
  long messages = arg_long(argc, argv, 3, 3, 1, 1000, kUsage);
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  long done = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(1)
  for (unsigned long i = 0; i < (unsigned long)tasks; i++) {
    spin_ns(100000); /* 0.1 ms of work */
#pragma omp atomic
    done++;
  }

  static int buf[1024];
  long sent = 0, received = 0;
  unsigned long long first_recv_ns = 0;
  int partner = rank % 2 ? rank - 1 : rank + 1;
  if (partner < size) {
    if (rank % 2) {
      struct timespec d = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
      nanosleep(&d, NULL);
      for (long m = 0; m < messages; m++, sent++) {
        MPI_Send(buf, 1024, MPI_INT, partner, (int)(7 + m), MPI_COMM_WORLD);
      }
      MPI_Recv(buf, 1024, MPI_INT, partner, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      received++;
    } else {
      for (long m = 0; m < messages; m++, received++) {
        unsigned long long t0 = now_ns();
        MPI_Recv(buf, 1024, MPI_INT, partner, (int)(7 + m), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (m == 0) first_recv_ns = now_ns() - t0;
      }
      MPI_Send(buf, 1024, MPI_INT, partner, 99, MPI_COMM_WORLD);
      sent++;
    }
  }
  int ok = done == tasks;
  printf("rank=%d size=%d tasks=%ld sent=%ld received=%ld first_recv_ns=%llu %s\n", rank, size,
         done, sent, received, first_recv_ns, ok ? "OK" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
