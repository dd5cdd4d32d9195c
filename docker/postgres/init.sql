-- Runs once, when the postgres container initialises its data directory, as the superuser in
-- the database "inventory". Debezium connects as "debezium": a REPLICATION role that owns the
-- tables, so it may create the filtered publication (publication.autocreate.mode=filtered).

CREATE ROLE debezium WITH LOGIN REPLICATION PASSWORD 'dbz';
GRANT CREATE ON SCHEMA public TO debezium;
GRANT CREATE ON DATABASE inventory TO debezium;

SET ROLE debezium;

CREATE TABLE public.customers (
  id         integer PRIMARY KEY,
  name       text NOT NULL,
  email      text,
  balance    numeric(12, 2) NOT NULL DEFAULT 0,
  attrs      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE public.orders (
  order_id    uuid PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES public.customers (id),
  ordered_on  date NOT NULL,
  amount      numeric(12, 2) NOT NULL,
  tags        text[]
);

INSERT INTO public.customers (id, name, email, balance, attrs) VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 120.50, '{"tier": "gold"}'),
  (2, 'Grace Hopper', 'grace@example.com', 75.00, NULL),
  (3, 'Edsger Dijkstra', NULL, 0, '{"tier": "silver"}');

INSERT INTO public.orders (order_id, customer_id, ordered_on, amount, tags) VALUES
  ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1, DATE '2024-03-01', 42.00, ARRAY['books']),
  ('b1ffcd88-8d1a-4ef8-bb6d-6bb9bd380a22', 2, DATE '2024-03-02', 9.99, ARRAY['tea', 'gift']);

RESET ROLE;
