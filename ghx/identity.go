package ghx

import "fmt"

// Bot identity kinds: who agent lanes write as.
const (
	BotApp           = "app"            // the GitHub App's installation token, from the broker
	BotMachineUser   = "machine-user"   // a machine user's token from the secrets store
	BotHumanFallback = "human-fallback" // the person's own token, tagged on every write
)

// HumanFallbackTrailer is added to every ledger commit made under the
// fallback, so `aayu audit` can list them.
const HumanFallbackTrailer = "Aayudha-Identity: human-fallback"

// IdentityConfig is the [identity] table (seed 001, "Key data"). All unset
// is solo mode.
type IdentityConfig struct {
	AppID             int64
	AppSlug           string
	Broker            string
	MachineUser       string
	MachineUserSecret string
	BotLogins         []string
}

// BotChoice is the identity agent lanes write under, and why.
type BotChoice struct {
	Kind    string // BotApp, BotMachineUser or BotHumanFallback
	Login   string // the bot's login when known ("<slug>[bot]", the machine user)
	Trailer string // the commit trailer to add; set only for the fallback
	Why     string // one sentence for `aayu auth`
	Source  string // where Resolver.Bot takes the token from (SourceBotEnv …); empty from BotIdentity alone
}

// BotIdentity picks the bot identity: the App through the token broker when
// both are configured, else the machine user when its login and secret are
// named, else the person's token as human-fallback — never GITHUB_TOKEN.
// Why says what is missing whenever a better identity was passed over.
func BotIdentity(cfg IdentityConfig) BotChoice {
	appConfigured := cfg.AppID != 0 || cfg.AppSlug != ""
	if appConfigured && cfg.Broker != "" {
		login := ""
		if cfg.AppSlug != "" {
			login = cfg.AppSlug + "[bot]"
		}
		return BotChoice{Kind: BotApp, Login: login,
			Why: fmt.Sprintf("the App's installation token is minted by the broker workflow %s; its private key never leaves GitHub", cfg.Broker)}
	}
	var passedOver string
	if appConfigured {
		passedOver = "an App is configured but no broker workflow, so a laptop cannot get its token; "
	}
	if cfg.MachineUser != "" && cfg.MachineUserSecret != "" {
		return BotChoice{Kind: BotMachineUser, Login: cfg.MachineUser,
			Why: passedOver + fmt.Sprintf("agents write as the machine user %s with the token in the secret %s", cfg.MachineUser, cfg.MachineUserSecret)}
	}
	if cfg.MachineUser != "" {
		passedOver += fmt.Sprintf("the machine user %s has no machine_user_secret naming its token; ", cfg.MachineUser)
	}
	why := passedOver + "no bot identity is usable, so agent writes go out under the person's token, each tagged human-fallback"
	if !appConfigured && cfg.MachineUser == "" {
		why = "solo mode: no bot App or machine user is configured, so agent writes go out under the person's token, each tagged human-fallback"
	}
	return BotChoice{Kind: BotHumanFallback, Trailer: HumanFallbackTrailer, Why: why}
}
