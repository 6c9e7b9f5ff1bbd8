--
-- PostgreSQL database dump
--

\restrict ZnjVT1bD9rhMcGYhEwR9q5j0agmVr3k6yL6QufHfYivdfW8KDjjyhygGMczjbkg

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: otpkit_complete_sign_ins(bigint[], text[], text[], bigint[], text[], text[], text[], text[], bigint[], text[], boolean[], bigint[], bigint[], text[], bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.otpkit_complete_sign_ins(bigint[], text[], text[], bigint[], text[], text[], text[], text[], bigint[], text[], boolean[], bigint[], bigint[], text[], bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $_$
BEGIN
    WITH released AS (
        DELETE FROM spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1, $2))
    ), accepted AS (
        UPDATE factors AS f SET last_accepted_step = step.value
        FROM unnest($3, $4) AS step (id, value)
        WHERE f.id = step.id
    ), cleared AS (
        DELETE FROM failure_counters WHERE key = ANY($5)
    ), inserted AS (
        INSERT INTO sessions (
            id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at
        )
        SELECT id, user_id, provider, authenticated_at, CASE WHEN has_factor THEN factor END, last_used_at, expires_at
        FROM unnest($6, $7, $8, $9, $10, $11, $12, $13)
            WITH ORDINALITY AS s (id, user_id, provider, authenticated_at, factor, has_factor, last_used_at, expires_at, position)
        ORDER BY position
    )
    DELETE FROM sessions WHERE id = ANY(ARRAY(
        SELECT ended.id
        FROM unnest($14, $15) AS cap (user_id, kept)
        CROSS JOIN LATERAL (
            SELECT id FROM sessions
            WHERE user_id = cap.user_id
                AND seq <= (SELECT seq FROM sessions WHERE user_id = cap.user_id ORDER BY seq DESC OFFSET cap.kept LIMIT 1)
        ) AS ended
    ));
END $_$;


--
-- Name: otpkit_count_sign_in_failures(bigint[], text[], text[], bigint[], boolean[], bigint[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.otpkit_count_sign_in_failures(bigint[], text[], text[], bigint[], boolean[], bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $_$
BEGIN
    WITH released AS (
        DELETE FROM spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1, $2))
    )
    UPDATE failure_counters AS c
    SET consecutive_failures = counter.failures, locked_until = CASE WHEN counter.is_locked THEN counter.until END
    FROM unnest($3, $4, $5, $6) AS counter (key, failures, is_locked, until)
    WHERE c.key = counter.key;
END $_$;


--
-- Name: otpkit_sign_in_completion_rows(bigint[], text[], text[], text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.otpkit_sign_in_completion_rows(bigint[], text[], text[], text[]) RETURNS TABLE(kind text, id text, user_id text, consecutive_failures bigint, locked_until bigint, last_accepted_step bigint)
    LANGUAGE plpgsql
    AS $_$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH claimed AS (
    INSERT INTO spent_sign_ins (expires_at, id)
    SELECT * FROM unnest($1, $2) AS claim (expires_at, id)
    ORDER BY expires_at, id
    ON CONFLICT DO NOTHING RETURNING id
), locked_factors AS (
        SELECT id, user_id, last_accepted_step FROM factors WHERE id = ANY($3) ORDER BY id FOR UPDATE
    ), locked_sessions AS (
        SELECT pg_advisory_xact_lock(1330925651, user_hash)
        FROM (SELECT DISTINCT hashtext(u.user_id) AS user_hash FROM unnest($4) AS u (user_id) ORDER BY user_hash) AS ordered
    )
    SELECT 'claimed', claimed.id, NULL, NULL::bigint, NULL::bigint, NULL::bigint FROM claimed
    UNION ALL
    SELECT 'factor', f.id, f.user_id, NULL, NULL, f.last_accepted_step FROM locked_factors AS f
    UNION ALL
    SELECT 'sessions locked', NULL, NULL, count(*), NULL, NULL FROM locked_sessions
    UNION ALL
    SELECT 'counter', c.key, NULL, c.consecutive_failures, c.locked_until, NULL FROM failure_counters AS c WHERE c.key = ANY($3);
END $_$;


--
-- Name: otpkit_sign_in_failure_rows(bigint[], text[], text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.otpkit_sign_in_failure_rows(bigint[], text[], text[]) RETURNS TABLE(kind text, key text, consecutive_failures bigint, locked_until bigint)
    LANGUAGE plpgsql
    AS $_$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH claimed AS (
    INSERT INTO spent_sign_ins (expires_at, id)
    SELECT * FROM unnest($1, $2) AS claim (expires_at, id)
    ORDER BY expires_at, id
    ON CONFLICT DO NOTHING RETURNING id
), counters AS (
        INSERT INTO failure_counters (key, consecutive_failures, locked_until)
        SELECT k, 0, NULL FROM unnest($3) AS k ORDER BY k
        ON CONFLICT (key) DO UPDATE SET key = excluded.key
        RETURNING failure_counters.key, failure_counters.consecutive_failures, failure_counters.locked_until
    )
    SELECT 'claimed', claimed.id, NULL::bigint, NULL::bigint FROM claimed
    UNION ALL
    SELECT 'counter', c.key, c.consecutive_failures, c.locked_until FROM counters AS c;
END $_$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    id text NOT NULL,
    email text,
    email_verified boolean NOT NULL,
    display_name text,
    photo_url text,
    disabled boolean NOT NULL,
    created_at bigint NOT NULL,
    last_sign_in_at bigint,
    password_hash text,
    tokens_valid_after bigint,
    custom_attributes text
);


--
-- Name: factors; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.factors (
    id text NOT NULL,
    user_id text NOT NULL,
    factor_id text NOT NULL,
    display_name text,
    enrolled_at bigint NOT NULL,
    sealed_secret bytea NOT NULL,
    key_id text NOT NULL,
    algorithm text NOT NULL,
    digits bigint NOT NULL,
    period bigint NOT NULL,
    last_accepted_step bigint
)
WITH (fillfactor='50');


--
-- Name: failure_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.failure_counters (
    key text NOT NULL,
    consecutive_failures bigint NOT NULL,
    locked_until bigint
)
WITH (fillfactor='50');


--
-- Name: otpkit_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.otpkit_migrations (
    version bigint NOT NULL,
    summary text NOT NULL,
    checksum text NOT NULL,
    applied_at bigint NOT NULL
);


--
-- Name: pending_enrollments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pending_enrollments (
    id text NOT NULL,
    user_id text NOT NULL,
    sealed_secret bytea NOT NULL,
    key_id text NOT NULL,
    algorithm text NOT NULL,
    digits bigint NOT NULL,
    period bigint NOT NULL,
    created_at bigint NOT NULL,
    deadline bigint NOT NULL
);


--
-- Name: phone_factors; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.phone_factors (
    id text NOT NULL,
    user_id text NOT NULL,
    display_name text,
    enrolled_at bigint NOT NULL,
    phone_number text NOT NULL
);


--
-- Name: phone_verifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.phone_verifications (
    id text NOT NULL,
    purpose text NOT NULL,
    user_id text NOT NULL,
    enrollment_id text,
    credential_id text,
    phone_number text NOT NULL,
    code_digest bytea NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    failed_attempts bigint NOT NULL
);


--
-- Name: provider_identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.provider_identities (
    provider_id text NOT NULL,
    provider_uid text NOT NULL,
    account_id text NOT NULL,
    email text,
    display_name text,
    phone_number text
);


--
-- Name: quotas; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.quotas (
    key text NOT NULL,
    window_start bigint NOT NULL,
    window_end bigint NOT NULL,
    count bigint NOT NULL
);


--
-- Name: recovery_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.recovery_codes (
    user_id text NOT NULL,
    digest bytea NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    seq bigint NOT NULL,
    id text NOT NULL,
    user_id text NOT NULL,
    first_factor_provider text NOT NULL,
    authenticated_at bigint NOT NULL,
    second_factor_enrollment_id text,
    last_used_at bigint NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: sessions_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sessions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sessions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: spent_sign_ins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.spent_sign_ins (
    expires_at bigint NOT NULL,
    id text NOT NULL
);


--
-- Name: store_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store_secrets (
    id text NOT NULL,
    sealed_secret bytea NOT NULL,
    key_id text NOT NULL
);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.accounts (id, email, email_verified, display_name, photo_url, disabled, created_at, last_sign_in_at, password_hash, tokens_valid_after, custom_attributes) FROM stdin;
QvTSTdgGV9cAlgb	ada@example.com	t	Ada	\N	f	1795923595	1795923595	$scrypt$ln=16,r=8,p=1$infOO8cBvJc/ZqU51+bdDw$fGdLS9Pae3vJsM/dMpF3cOIrs9FjbGZRtnqabJVkLss	\N	\N
LZoPdziFl56xMqE	bob@example.com	t	\N	\N	f	1795923596	1795923596	$scrypt$ln=16,r=8,p=1$20xyPctWYJAxRgaqQwSwnA$a5huAFqJE+69Y51MzHtmRHQewfHc//D+GoctBKddsx8	\N	{"role": "auditor"}
tPVs4HmLpB9y0C2	\N	f	\N	\N	f	1795923596	1795923596	\N	\N	\N
\.


--
-- Data for Name: factors; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.factors (id, user_id, factor_id, display_name, enrolled_at, sealed_secret, key_id, algorithm, digits, period, last_accepted_step) FROM stdin;
PzWwk9WygR9sUXE	QvTSTdgGV9cAlgb	totp	Authenticator	1795923596	\\x010def224e022bc50a299f205b2626e793ad337b924fbddd68de64124c47a2a8173dca72677997a0903a7eb07ebd0ac9b81a3139b1064de822	0def224e022bc50a	SHA1	6	30	59864119
\.


--
-- Data for Name: failure_counters; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.failure_counters (key, consecutive_failures, locked_until) FROM stdin;
\.


--
-- Data for Name: otpkit_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.otpkit_migrations (version, summary, checksum, applied_at) FROM stdin;
1	pending enrollments, factors, failure counters, pending sign-ins, sessions, recovery codes, store secrets, quotas	7d5a89aeec165f1db31ba9c1eff20fcbb330bddc290a27140a6ea93d1595ae0a	1795923595
2	phone factors, one per number and user, and the verifications of codes sent to them	f594d38630a92999f3566597effaa9abbb8a003a0671f711dab474ba49fa9f31	1795923595
3	accounts with unique email addresses; provider identities, each on one account, one per provider	e361f01522252f0b8603fde12973ebed695ebc109e7bc6ded625e4ffb4137cdb	1795923595
4	accounts: the time before which their tokens are revoked (Firebase's validSince)	ceeb35e80526f4c50908bc3f5b63c05cd9e4ccb69106e2bfa9415f48f70ff299	1795923595
5	accounts: the custom claims an administrator set (Firebase's customAttributes)	33c1ab3ac61caa76a931b53f36ee4f8d66e150fae3be6a1c33f96cc3d8b3802a	1795923595
6	pending sign-ins travel in their credentials: only the ids of the spent ones are kept, until they expire	c17383a895a51f46b5f2b9ecc30f33c01f0021eb06cd8378c7c0af5a8942870c	1795923595
7	factors and failure counters leave room in their pages for the updates of sign-ins	5df91feb27765041df5c498512ee85ebd2641780842976ceef68bbea97a47cb5	1795923595
8	the statements of sign-in sets as functions, whose plans each connection keeps	aa6a3f5fca053f6f1c887ab18784f24952a984383c97c1de3dd0cc7e195b6cd9	1795923595
\.


--
-- Data for Name: pending_enrollments; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.pending_enrollments (id, user_id, sealed_secret, key_id, algorithm, digits, period, created_at, deadline) FROM stdin;
\.


--
-- Data for Name: phone_factors; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.phone_factors (id, user_id, display_name, enrolled_at, phone_number) FROM stdin;
lSXSQoa9MN4f9nZ	QvTSTdgGV9cAlgb	Phone	1795923596	+12015550123
\.


--
-- Data for Name: phone_verifications; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.phone_verifications (id, purpose, user_id, enrollment_id, credential_id, phone_number, code_digest, created_at, expires_at, failed_attempts) FROM stdin;
\.


--
-- Data for Name: provider_identities; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.provider_identities (provider_id, provider_uid, account_id, email, display_name, phone_number) FROM stdin;
\.


--
-- Data for Name: quotas; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.quotas (key, window_start, window_end, count) FROM stdin;
sms-number:+12015550123	1795921200	1795924800	1
sms-user:QvTSTdgGV9cAlgb	1795921200	1795924800	1
sms-day:+12015550123	1795910400	1795996800	1
\.


--
-- Data for Name: recovery_codes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.recovery_codes (user_id, digest) FROM stdin;
\.


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sessions (seq, id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at) FROM stdin;
1	ZAovmCRjUDONqfP	QvTSTdgGV9cAlgb	password	1795923596	\N	1795923596	1796528396
2	ytMHEGHhmoWBHb6	LZoPdziFl56xMqE	password	1795923596	\N	1795923596	1796528396
3	DgLBftL75VRc891	tPVs4HmLpB9y0C2	anonymous	1795923596	\N	1795923596	1796528396
\.


--
-- Data for Name: spent_sign_ins; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.spent_sign_ins (expires_at, id) FROM stdin;
\.


--
-- Data for Name: store_secrets; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.store_secrets (id, sealed_secret, key_id) FROM stdin;
code-digest-key	\\x010def224e022bc50ae69f982b01265fbf05d21b3891878ee0644e4945c7f270c843fdcd2c9e9e38dc93137354e7fe85406d2fe329a1beb3d9beb746eaad994f6d2c17b5ec	0def224e022bc50a
\.


--
-- Name: sessions_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sessions_seq_seq', 3, true);


--
-- Name: accounts accounts_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_email_key UNIQUE (email);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);


--
-- Name: factors factors_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.factors
    ADD CONSTRAINT factors_pkey PRIMARY KEY (id);


--
-- Name: failure_counters failure_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.failure_counters
    ADD CONSTRAINT failure_counters_pkey PRIMARY KEY (key);


--
-- Name: otpkit_migrations otpkit_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.otpkit_migrations
    ADD CONSTRAINT otpkit_migrations_pkey PRIMARY KEY (version);


--
-- Name: pending_enrollments pending_enrollments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_enrollments
    ADD CONSTRAINT pending_enrollments_pkey PRIMARY KEY (id);


--
-- Name: phone_factors phone_factors_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_factors
    ADD CONSTRAINT phone_factors_pkey PRIMARY KEY (id);


--
-- Name: phone_factors phone_factors_user_id_phone_number_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_factors
    ADD CONSTRAINT phone_factors_user_id_phone_number_key UNIQUE (user_id, phone_number);


--
-- Name: phone_verifications phone_verifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.phone_verifications
    ADD CONSTRAINT phone_verifications_pkey PRIMARY KEY (id);


--
-- Name: provider_identities provider_identities_account_provider_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.provider_identities
    ADD CONSTRAINT provider_identities_account_provider_key UNIQUE (account_id, provider_id);


--
-- Name: provider_identities provider_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.provider_identities
    ADD CONSTRAINT provider_identities_pkey PRIMARY KEY (provider_id, provider_uid);


--
-- Name: quotas quotas_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.quotas
    ADD CONSTRAINT quotas_pkey PRIMARY KEY (key);


--
-- Name: recovery_codes recovery_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.recovery_codes
    ADD CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, digest);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);


--
-- Name: spent_sign_ins spent_sign_ins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spent_sign_ins
    ADD CONSTRAINT spent_sign_ins_pkey PRIMARY KEY (expires_at, id);


--
-- Name: store_secrets store_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store_secrets
    ADD CONSTRAINT store_secrets_pkey PRIMARY KEY (id);


--
-- Name: factors_by_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX factors_by_key ON public.factors USING btree (key_id);


--
-- Name: factors_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX factors_by_user ON public.factors USING btree (user_id, enrolled_at, id);


--
-- Name: pending_enrollments_by_deadline; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_enrollments_by_deadline ON public.pending_enrollments USING btree (deadline);


--
-- Name: pending_enrollments_by_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_enrollments_by_key ON public.pending_enrollments USING btree (key_id);


--
-- Name: phone_factors_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX phone_factors_by_user ON public.phone_factors USING btree (user_id, enrolled_at, id);


--
-- Name: phone_verifications_by_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX phone_verifications_by_expiry ON public.phone_verifications USING btree (expires_at);


--
-- Name: quotas_by_window_end; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX quotas_by_window_end ON public.quotas USING btree (window_end);


--
-- Name: sessions_by_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_by_expiry ON public.sessions USING btree (expires_at);


--
-- Name: sessions_by_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_by_user ON public.sessions USING btree (user_id, seq);


--
-- Name: store_secrets_by_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX store_secrets_by_key ON public.store_secrets USING btree (key_id);


--
-- Name: provider_identities provider_identities_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.provider_identities
    ADD CONSTRAINT provider_identities_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict ZnjVT1bD9rhMcGYhEwR9q5j0agmVr3k6yL6QufHfYivdfW8KDjjyhygGMczjbkg

