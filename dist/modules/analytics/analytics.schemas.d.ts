import { Type, type TProperties, type TSchema } from 'typebox';
export declare const AnalyticsPeriod: Type.TObject<{
    from: Type.TString;
    to: Type.TString;
}>;
export declare const AnalyticsChange: Type.TObject<{
    absolute: Type.TNumber;
    percent: Type.TUnion<[Type.TNumber, Type.TNull]>;
    note: Type.TUnion<[Type.TString, Type.TNull]>;
}>;
export declare const MoneyTotal: Type.TObject<{
    currency: Type.TUnion<[Type.TString, Type.TNull]>;
    value: Type.TString;
}>;
export declare const AnalyticsQueryProps: {
    range: Type.TOptional<Type.TEnum<["today", "this_week", "last_week", "this_month", "last_month", "this_quarter", "this_year", "last_year"]>>;
    from: Type.TOptional<Type.TString>;
    to: Type.TOptional<Type.TString>;
    compare: Type.TOptional<Type.TEnum<["1", "true", "previous", "0", "false"]>>;
};
export declare const AnalyticsQuery: Type.TObject<{
    range: Type.TOptional<Type.TEnum<["today", "this_week", "last_week", "this_month", "last_month", "this_quarter", "this_year", "last_year"]>>;
    from: Type.TOptional<Type.TString>;
    to: Type.TOptional<Type.TString>;
    compare: Type.TOptional<Type.TEnum<["1", "true", "previous", "0", "false"]>>;
}>;
export declare const SalesQuery: Type.TObject<{
    range: Type.TOptional<Type.TEnum<["today", "this_week", "last_week", "this_month", "last_month", "this_quarter", "this_year", "last_year"]>>;
    from: Type.TOptional<Type.TString>;
    to: Type.TOptional<Type.TString>;
    compare: Type.TOptional<Type.TEnum<["1", "true", "previous", "0", "false"]>>;
    owner_user_id: Type.TOptional<Type.TInteger>;
    by: Type.TOptional<Type.TEnum<["owner", "closer"]>>;
}>;
export declare const FUNNEL_STAGES: readonly ['new', 'qualified', 'proposal', 'negotiation', 'won'];
export declare const SalesReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    created: Type.TInteger;
    won: Type.TInteger;
    lost: Type.TInteger;
    win_rate: Type.TUnion<[Type.TNumber, Type.TNull]>;
    by_rep: Type.TArray<Type.TObject<{
        user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
        display_name: Type.TUnion<[Type.TString, Type.TNull]>;
        created: Type.TInteger;
        won: Type.TInteger;
        lost: Type.TInteger;
        win_rate: Type.TUnion<[Type.TNumber, Type.TNull]>;
    }>>;
    funnel: Type.TObject<{
        [k: string]: Type.TInteger;
    }>;
    lost_reasons: Type.TArray<Type.TObject<{
        code: Type.TUnion<[Type.TString, Type.TNull]>;
        label: Type.TUnion<[Type.TString, Type.TNull]>;
        count: Type.TInteger;
    }>>;
} & {
    open_pipeline: Type.TObject<{
        count: Type.TInteger;
        values: Type.TArray<TSchema>;
        by_status: Type.TArray<Type.TObject<{
            status: Type.TString;
            count: Type.TInteger;
            values: Type.TArray<TSchema>;
        }>>;
        overdue_followups: Type.TInteger;
        deals_without_activity_14d: Type.TInteger;
    }>;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        created: Type.TInteger;
        won: Type.TInteger;
        lost: Type.TInteger;
        win_rate: Type.TUnion<[Type.TNumber, Type.TNull]>;
        by_rep: Type.TArray<Type.TObject<{
            user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            display_name: Type.TUnion<[Type.TString, Type.TNull]>;
            created: Type.TInteger;
            won: Type.TInteger;
            lost: Type.TInteger;
            win_rate: Type.TUnion<[Type.TNumber, Type.TNull]>;
        }>>;
        funnel: Type.TObject<{
            [k: string]: Type.TInteger;
        }>;
        lost_reasons: Type.TArray<Type.TObject<{
            code: Type.TUnion<[Type.TString, Type.TNull]>;
            label: Type.TUnion<[Type.TString, Type.TNull]>;
            count: Type.TInteger;
        }>>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
export declare const SUPPORT_TOTALS: readonly ['created', 'closed', 'support_updates'];
export declare const SupportReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    created: Type.TInteger;
    closed: Type.TInteger;
    support_updates: Type.TInteger;
    by_employee: Type.TArray<Type.TObject<{
        created: Type.TInteger;
        closed: Type.TInteger;
        support_updates: Type.TInteger;
        currently_open: Type.TInteger;
    }>>;
    by_customer: Type.TArray<Type.TObject<{
        created: Type.TInteger;
        closed: Type.TInteger;
        support_updates: Type.TInteger;
        currently_open: Type.TInteger;
    }>>;
} & {
    currently_open: Type.TInteger;
    aged_open: Type.TInteger;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        created: Type.TInteger;
        closed: Type.TInteger;
        support_updates: Type.TInteger;
        by_employee: Type.TArray<Type.TObject<{
            created: Type.TInteger;
            closed: Type.TInteger;
            support_updates: Type.TInteger;
            currently_open: Type.TInteger;
        }>>;
        by_customer: Type.TArray<Type.TObject<{
            created: Type.TInteger;
            closed: Type.TInteger;
            support_updates: Type.TInteger;
            currently_open: Type.TInteger;
        }>>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
export declare const TEAM_TOTALS: readonly ['deals_created', 'deals_won', 'deals_lost', 'activities', 'tickets_closed', 'support_logs'];
export declare const TeamReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    users: Type.TArray<Type.TObject<{
        deals_created: Type.TInteger;
        deals_won: Type.TInteger;
        deals_lost: Type.TInteger;
        activities: Type.TInteger;
        tickets_closed: Type.TInteger;
        support_logs: Type.TInteger;
        user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
        display_name: Type.TUnion<[Type.TString, Type.TNull]>;
        is_active: Type.TUnion<[Type.TBoolean, Type.TNull]>;
    }>>;
    totals: Type.TObject<{
        deals_created: Type.TInteger;
        deals_won: Type.TInteger;
        deals_lost: Type.TInteger;
        activities: Type.TInteger;
        tickets_closed: Type.TInteger;
        support_logs: Type.TInteger;
    }>;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        users: Type.TArray<Type.TObject<{
            deals_created: Type.TInteger;
            deals_won: Type.TInteger;
            deals_lost: Type.TInteger;
            activities: Type.TInteger;
            tickets_closed: Type.TInteger;
            support_logs: Type.TInteger;
            user_id: Type.TUnion<[Type.TInteger, Type.TNull]>;
            display_name: Type.TUnion<[Type.TString, Type.TNull]>;
            is_active: Type.TUnion<[Type.TBoolean, Type.TNull]>;
        }>>;
        totals: Type.TObject<{
            deals_created: Type.TInteger;
            deals_won: Type.TInteger;
            deals_lost: Type.TInteger;
            activities: Type.TInteger;
            tickets_closed: Type.TInteger;
            support_logs: Type.TInteger;
        }>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
export declare const CUSTOMER_TOTALS: readonly ['customers_with_deals_created', 'customers_with_deals_won', 'customers_with_activities', 'customers_with_tickets_created', 'customers_with_support_updates'];
export declare const CustomersReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    rankings: Type.TObject<{
        deals_created: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
        deals_won: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
        activities: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
        tickets_created: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
        support_updates: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
    }>;
    totals: Type.TObject<{
        customers_with_deals_created: Type.TInteger;
        customers_with_deals_won: Type.TInteger;
        customers_with_activities: Type.TInteger;
        customers_with_tickets_created: Type.TInteger;
        customers_with_support_updates: Type.TInteger;
    }>;
} & {
    now_rankings: Type.TObject<{
        open_deals: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
        open_tickets: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            value: Type.TInteger;
        }>>;
    }>;
    customers_with_open_support_and_open_deals: Type.TObject<{
        count: Type.TInteger;
        orgs: Type.TArray<Type.TObject<{
            org_id: Type.TInteger;
            name: Type.TString;
            open_tickets: Type.TInteger;
            open_deals: Type.TInteger;
        }>>;
    }>;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        rankings: Type.TObject<{
            deals_created: Type.TArray<Type.TObject<{
                org_id: Type.TInteger;
                name: Type.TString;
                value: Type.TInteger;
            }>>;
            deals_won: Type.TArray<Type.TObject<{
                org_id: Type.TInteger;
                name: Type.TString;
                value: Type.TInteger;
            }>>;
            activities: Type.TArray<Type.TObject<{
                org_id: Type.TInteger;
                name: Type.TString;
                value: Type.TInteger;
            }>>;
            tickets_created: Type.TArray<Type.TObject<{
                org_id: Type.TInteger;
                name: Type.TString;
                value: Type.TInteger;
            }>>;
            support_updates: Type.TArray<Type.TObject<{
                org_id: Type.TInteger;
                name: Type.TString;
                value: Type.TInteger;
            }>>;
        }>;
        totals: Type.TObject<{
            customers_with_deals_created: Type.TInteger;
            customers_with_deals_won: Type.TInteger;
            customers_with_activities: Type.TInteger;
            customers_with_tickets_created: Type.TInteger;
            customers_with_support_updates: Type.TInteger;
        }>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
export declare const ACTIVITY_KINDS: readonly ['note', 'email', 'call', 'meeting'];
export declare const ActivityReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    total: Type.TInteger;
    by_source: Type.TObject<{
        timeline: Type.TInteger;
        support_log: Type.TInteger;
    }>;
    by_kind: Type.TObject<{
        [k: string]: Type.TInteger;
    }>;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        total: Type.TInteger;
        by_source: Type.TObject<{
            timeline: Type.TInteger;
            support_log: Type.TInteger;
        }>;
        by_kind: Type.TObject<{
            [k: string]: Type.TInteger;
        }>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
export declare const TREND_FACTS: readonly ['deals_created', 'deals_won', 'deals_lost', 'activities', 'tickets_created', 'tickets_closed', 'support_logs'];
export declare const TrendsReport: Type.TObject<{
    range: Type.TString;
    period: TSchema;
} & {
    weeks: Type.TArray<Type.TObject<{
        week: Type.TString;
        week_start: Type.TString;
    }>>;
    totals: Type.TObject<{
        [k: string]: Type.TInteger;
    }>;
} & {
    previous: Type.TOptional<Type.TObject<{
        period: TSchema;
    } & {
        weeks: Type.TArray<Type.TObject<{
            week: Type.TString;
            week_start: Type.TString;
        }>>;
        totals: Type.TObject<{
            [k: string]: Type.TInteger;
        }>;
    }>>;
    change: Type.TOptional<Type.TObject<TProperties>>;
}>;
